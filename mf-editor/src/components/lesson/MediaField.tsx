import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import type { UploadAccept, UploadedFile } from '@portal/contracts';
import { Button, Input, Label, ProgressBar, uploadHint, uploadProblem, useToast } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { MEDIA_MSG, mediaAllowed, mediaOriginOf, useMediaPolicy, videoSourceOf } from '@portal/web-core/media';
import { useBackend } from '../../backend/backend';

/** Image, video and audio inputs accept only their kind; a file block accepts anything. */
const ACCEPT_ATTR: Record<UploadAccept, string | undefined> = {
  image: 'image/*',
  video: 'video/*',
  audio: 'audio/*',
  media: 'image/*,video/*,audio/*',
  any: undefined,
};

interface MediaFieldProps {
  /** What the upload input is called, e.g. 'Загрузить изображение'. */
  uploadLabel: string;
  /** What the address input is called, e.g. 'Адрес изображения'. */
  urlLabel: string;
  accept: UploadAccept;
  url: string;
  onUrl: (url: string) => void;
  onUploaded: (file: UploadedFile) => void;
  /** The alert shown when the upload fails. */
  failureAlert: string;
  /** Say, while an address is typed, whether the portal will play it (video and audio). */
  check?: 'video' | 'audio';
}

/** What the portal will do with a typed address: a host's player, nothing to say, or a refusal. */
function useSourceNote(url: string, check: 'video' | 'audio' | undefined): { text: string; problem: boolean } | null {
  const policy = useMediaPolicy();
  if (!check || !policy || !url.trim()) return null;
  const page = window.location.origin;
  if (check === 'audio')
    return mediaAllowed(url, policy, page)
      ? null
      : { text: MEDIA_MSG.audioNotAllowedForAuthor(mediaOriginOf(url)), problem: true };
  const source = videoSourceOf(url, policy, page);
  if (source.kind === 'embed') return { text: MEDIA_MSG.embedded(source.host), problem: false };
  if (source.kind === 'blocked') return { text: MEDIA_MSG.notAllowedForAuthor(source.origin), problem: true };
  return null;
}

/** A file uploaded through the upload API, or an address typed in. */
export function MediaField({ uploadLabel, urlLabel, accept, url, onUrl, onUploaded, failureAlert, check }: MediaFieldProps) {
  const backend = useBackend();
  /** The percent sent while an upload runs, null otherwise. */
  const [sent, setSent] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const toast = useToast();
  const [problem, setProblem] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);
  const busy = sent !== null;
  // Leaving the block (or the lesson) cancels what is still going out.
  useEffect(() => () => running.current?.abort(), []);
  const hintId = useId();
  const noteId = useId();
  const note = useSourceNote(url, check);

  const upload = async (file: File | undefined) => {
    if (!file || busy) return;
    // Said before a byte is sent: the wrong kind of file, or one too large.
    const refused = uploadProblem(file, accept);
    setProblem(refused);
    if (refused) return;
    const controller = new AbortController();
    running.current = controller;
    setSent(0);
    try {
      onUploaded(await backend.upload(file, accept, { onProgress: setSent, signal: controller.signal }));
    } catch (err) {
      if ((err as Error).name === 'AbortError') {
        if (running.current === controller) setProblem('Загрузка отменена');
        return;
      }
      // The server's reason stays on the panel; the toast is the spec's text.
      setProblem(errorMessage(err, failureAlert));
      toast.show(failureAlert, 'error');
    } finally {
      if (running.current === controller) {
        running.current = null;
        setSent(null);
      }
    }
  };

  return (
    <Group
      data-testid="drop-zone"
      $dragging={dragging}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = busy ? 'none' : 'copy';
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        if (!e.dataTransfer.files.length) return;
        e.preventDefault();
        setDragging(false);
        void upload(e.dataTransfer.files[0]);
      }}
    >
      <Label>
        {uploadLabel}
        <FileInput
          type="file"
          accept={ACCEPT_ATTR[accept]}
          disabled={busy}
          aria-describedby={hintId}
          onChange={(e) => {
            void upload(e.currentTarget.files?.[0]);
            e.currentTarget.value = '';
          }}
        />
      </Label>
      {busy ? (
        <Progress>
          <ProgressBar name={`${uploadLabel}: отправлено`} value={sent} valueText={`${Math.round(sent)}%`} />
          <span aria-hidden="true">{Math.round(sent)}%</span>
          <Button type="button" $variant="outline" $size="sm" onClick={() => running.current?.abort()}>
            Отменить загрузку
          </Button>
        </Progress>
      ) : (
        <Hint id={hintId} role={problem ? 'alert' : undefined} $problem={!!problem}>
          {problem ?? `${uploadHint(accept)}; файл можно перетащить сюда`}
        </Hint>
      )}
      <Label>
        {urlLabel}
        <Input
          value={url}
          placeholder={check === 'video' ? 'https://… или ссылка YouTube, RuTube, VK Видео' : '/api/files/… или https://…'}
          aria-invalid={note?.problem || undefined}
          aria-describedby={note ? noteId : undefined}
          onChange={(e) => onUrl(e.target.value)}
        />
      </Label>
      {note && (
        <Hint id={noteId} role={note.problem ? 'alert' : 'status'} $problem={note.problem}>
          {note.text}
        </Hint>
      )}
    </Group>
  );
}

const Group = styled.div<{ $dragging: boolean }>`
  display: grid;
  gap: 8px;
  padding: 8px;
  margin: -8px;
  border: 2px dashed ${({ theme, $dragging }) => ($dragging ? theme.colors.primary : 'transparent')};
  border-radius: ${({ theme }) => theme.radius};
`;
const Progress = styled.div`
  display: grid;
  grid-template-columns: 1fr auto auto;
  align-items: center;
  gap: 8px;
  font-size: 13px;
`;
const FileInput = styled.input`
  font: inherit;
  font-size: 13px;
`;
const Hint = styled.span<{ $problem: boolean }>`
  font-size: 12px;
  overflow-wrap: anywhere;
  color: ${({ theme, $problem }) => ($problem ? theme.colors.danger : theme.colors.muted)};
`;
