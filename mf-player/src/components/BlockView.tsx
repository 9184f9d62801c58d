import type { ReactNode } from 'react';
import styled from 'styled-components';
import { PROGRESS_MSG, type ContentBlock, type ScormBlockContent } from '@portal/contracts';
import { FileIcon, fileSizeLabel } from '@portal/ui';
import { RichTextView } from '@portal/ui/richText';
import { downloadPortalFile, isPortalFile, usePortalFileSrc } from '@portal/web-core';
// Not in the shared web-core: only lessons play media, and a visitor's first page does without it.
import { MEDIA_MSG, mediaAllowed, mediaOriginOf, useMediaPolicy, videoSourceOf, type MediaPolicy } from '@portal/web-core/media';

// Until the policy is read only the portal's own files are played: another origin waits for it, so
// a source the policy refuses is never requested (the browser would block it and log the violation).
/** A picture of the portal or another site; a portal file that is not public is read with the token. */
function FileImage({ src, alt }: { src: string; alt: string }) {
  const file = usePortalFileSrc(src);
  return <img src={file.src} alt={alt} loading="lazy" onError={file.onError} />;
}

function FileVideo({ src, poster, name }: { src: string; poster?: string; name: string }) {
  const file = usePortalFileSrc(src);
  return (
    <video controls preload="metadata" poster={poster} src={file.src} aria-label={name} onError={file.onError}>
      <track kind="captions" />
    </video>
  );
}

function FileAudio({ src, name }: { src: string; name: string }) {
  const file = usePortalFileSrc(src);
  return <audio controls preload="metadata" src={file.src} aria-label={name} onError={file.onError} />;
}

const OWN_ONLY: MediaPolicy = { enforced: true, sources: ["'self'", 'blob:'] };

interface BlockViewProps {
  block: ContentBlock;
  renderQuiz: (quizId: string) => ReactNode;
  renderScorm: (content: ScormBlockContent) => ReactNode;
}

/** One content block of a lesson, rendered by its type; a quiz or SCORM block is rendered by the caller. */
export function BlockView({ block, renderQuiz, renderScorm }: BlockViewProps) {
  const read = useMediaPolicy();
  const policy = read ?? OWN_ONLY;
  const page = window.location.origin;
  /** A source of another origin while the policy is still being read. */
  const waiting = (src: string) => !read && !mediaAllowed(src, OWN_ONLY, page);
  switch (block.type) {
    case 'heading': {
      const level = Math.min(6, Math.max(3, block.content.level ?? 3));
      const Tag = `h${level}` as 'h3';
      return <Heading as={Tag}>{block.content.text}</Heading>;
    }
    case 'text':
      return <RichTextView content={block.content} />;
    case 'image': {
      const src = block.content.src || block.content.url;
      return (
        <Figure>
          {src ? (
            <FileImage src={src} alt={block.content.alt ?? ''} />
          ) : (
            <Placeholder role="img" aria-label={PROGRESS_MSG.imageNotUploaded}>
              {PROGRESS_MSG.imageNotUploaded}
            </Placeholder>
          )}
          {block.content.caption && <figcaption>{block.content.caption}</figcaption>}
        </Figure>
      );
    }
    case 'video': {
      const src = block.content.src || block.content.url;
      const source = src ? videoSourceOf(src, policy, page) : null;
      if (src && source?.kind === 'blocked' && waiting(src)) return <Placeholder role="status">Загрузка видео...</Placeholder>;
      const name = block.content.title || 'Видео';
      return (
        <Figure>
          {block.content.title && <MediaTitle>{block.content.title}</MediaTitle>}
          {source?.kind === 'embed' && (
            <Frame
              src={source.src}
              title={`${name} (${source.host})`}
              allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
              loading="lazy"
            />
          )}
          {source?.kind === 'file' && (
            <FileVideo
              poster={block.content.poster && mediaAllowed(block.content.poster, policy, page) ? block.content.poster : undefined}
              src={source.src}
              name={name}
            />
          )}
          {source?.kind === 'blocked' && (
            <Placeholder role="alert">{MEDIA_MSG.notAllowedForLearner('video', source.origin)}</Placeholder>
          )}
          {!source && <Placeholder>Видео не загружено</Placeholder>}
          {block.content.description && <figcaption>{block.content.description}</figcaption>}
        </Figure>
      );
    }
    case 'audio': {
      const src = block.content.src || block.content.url;
      return (
        <Figure>
          {block.content.title && <MediaTitle>{block.content.title}</MediaTitle>}
          {!src ? (
            <Placeholder>Аудио не загружено</Placeholder>
          ) : waiting(src) ? (
            <Placeholder role="status">Загрузка аудио...</Placeholder>
          ) : mediaAllowed(src, policy, page) ? (
            <FileAudio src={src} name={block.content.title || 'Аудио'} />
          ) : (
            <Placeholder role="alert">{MEDIA_MSG.notAllowedForLearner('audio', mediaOriginOf(src))}</Placeholder>
          )}
          {block.content.description && <figcaption>{block.content.description}</figcaption>}
        </Figure>
      );
    }
    case 'file': {
      const src = block.content.src || block.content.url;
      const name = block.content.name || 'Файл';
      const size = fileSizeLabel(block.content);
      return (
        <FileRow>
          <FileIcon />
          <div>
            <strong>{name}</strong>
            {size && <small> · {size}</small>}
            {block.content.description && <p>{block.content.description}</p>}
          </div>
          {src ? (
            <a
              href={src}
              download={name}
              rel="noopener"
              onClick={(e) => {
                // A draft course's file needs the person's token, which a plain link cannot send.
                if (!isPortalFile(src)) return;
                e.preventDefault();
                void downloadPortalFile(src, name);
              }}
            >
              {PROGRESS_MSG.download}
            </a>
          ) : (
            <small>Файл не загружен</small>
          )}
        </FileRow>
      );
    }
    case 'quiz':
      // Spec: a quiz that cannot be found renders nothing.
      return block.content.quizId ? <>{renderQuiz(block.content.quizId)}</> : null;
    case 'scorm':
      return <>{renderScorm(block.content)}</>;
    default:
      return <Unknown role="note">{PROGRESS_MSG.unknownBlockType}</Unknown>;
  }
}

const Heading = styled.h3`
  margin: 8px 0 0;
`;
const Figure = styled.figure`
  margin: 0;
  display: grid;
  gap: 8px;
  img,
  video {
    max-width: 100%;
    border-radius: ${({ theme }) => theme.radius};
    background: #000;
  }
  audio {
    width: 100%;
  }
  figcaption {
    color: ${({ theme }) => theme.colors.muted};
    font-size: 14px;
  }
`;
const Frame = styled.iframe`
  width: 100%;
  aspect-ratio: 16 / 9;
  border: 0;
  border-radius: ${({ theme }) => theme.radius};
  background: #000;
`;
const MediaTitle = styled.strong`
  font-size: 15px;
`;
const Placeholder = styled.div`
  display: grid;
  place-items: center;
  min-height: 160px;
  padding: 16px;
  text-align: center;
  overflow-wrap: anywhere;
  border: 2px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  color: ${({ theme }) => theme.colors.muted};
`;
const FileRow = styled.div`
  display: grid;
  grid-template-columns: auto 1fr auto;
  align-items: center;
  gap: 12px;
  padding: 12px 16px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  > div {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  p {
    margin: 4px 0 0;
    color: ${({ theme }) => theme.colors.muted};
    font-size: 14px;
  }
  small {
    color: ${({ theme }) => theme.colors.muted};
  }
`;
const Unknown = styled.div`
  padding: 12px 16px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  color: ${({ theme }) => theme.colors.muted};
`;
