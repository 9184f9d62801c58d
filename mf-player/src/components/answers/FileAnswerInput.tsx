import { useState } from 'react';
import styled from 'styled-components';
import { Input } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { uploadAnswerFile } from '../../api/player';
import type { AnswerInputProps } from './props';
import { Choices } from './styles';

export const FILE_ANSWER_MSG = {
  label: 'Файл с ответом',
  uploading: 'Загрузка...',
  uploaded: (name: string) => `Загружен файл: ${name}`,
  hint: 'Файл проверит куратор; до проверки ответ не оценивается.',
  preview: 'В предпросмотре файл не загружается: отмечено только его имя.',
  failed: 'Не удалось загрузить файл',
} as const;

/** file_upload: the file goes where other uploads go (checked the same way); the answer is its address. */
export function FileAnswerInput({ value, onChange, disabled, preview: previewing, quizId }: AnswerInputProps) {
  const preview = previewing || !quizId;
  const address = typeof value === 'string' ? value : null;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (preview) {
      setName(file.name);
      onChange(`/api/files/preview.${file.name.split('.').pop()?.replace(/\W/g, '') || 'bin'}`);
      return;
    }
    setBusy(true);
    try {
      const uploaded = await uploadAnswerFile(file, quizId ?? '');
      setName(uploaded.originalName);
      onChange(uploaded.url);
    } catch (err) {
      setProblem(errorMessage(err, FILE_ANSWER_MSG.failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Choices>
      <label>
        {FILE_ANSWER_MSG.label}
        <Input
          type="file"
          disabled={disabled || busy}
          onChange={(e) => {
            void choose(e.currentTarget.files?.[0]);
            e.currentTarget.value = '';
          }}
        />
      </label>
      <Small role={problem ? 'alert' : 'status'}>
        {busy
          ? FILE_ANSWER_MSG.uploading
          : (problem ??
            (address
              ? FILE_ANSWER_MSG.uploaded(name ?? address.split('/').pop() ?? address)
              : preview
                ? FILE_ANSWER_MSG.preview
                : FILE_ANSWER_MSG.hint))}
      </Small>
    </Choices>
  );
}

const Small = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
`;
