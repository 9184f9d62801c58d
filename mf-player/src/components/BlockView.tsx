import type { ReactNode } from 'react';
import styled from 'styled-components';
import { PROGRESS_MSG, type ContentBlock } from '@portal/contracts';

/** One content block of a lesson, rendered by its type (spec section 2); a quiz block is rendered by the caller. */
export function BlockView({ block, renderQuiz }: { block: ContentBlock; renderQuiz: (quizId: string) => ReactNode }) {
  switch (block.type) {
    case 'heading': {
      const level = Math.min(6, Math.max(3, block.content.level ?? 3));
      const Tag = `h${level}` as 'h3';
      return <Heading as={Tag}>{block.content.text}</Heading>;
    }
    case 'text':
      return <Text>{block.content.text}</Text>;
    case 'image': {
      const src = block.content.src || block.content.url;
      return (
        <Figure>
          {src ? (
            <img src={src} alt={block.content.alt ?? ''} loading="lazy" />
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
      return (
        <Figure>
          {block.content.title && <MediaTitle>{block.content.title}</MediaTitle>}
          {src ? (
            <video
              controls
              preload="metadata"
              poster={block.content.poster || undefined}
              src={src}
              aria-label={block.content.title || 'Видео'}
            >
              <track kind="captions" />
            </video>
          ) : (
            <Placeholder>Видео не загружено</Placeholder>
          )}
          {block.content.description && <figcaption>{block.content.description}</figcaption>}
        </Figure>
      );
    }
    case 'audio': {
      const src = block.content.src || block.content.url;
      return (
        <Figure>
          {block.content.title && <MediaTitle>{block.content.title}</MediaTitle>}
          {src ? (
            <audio controls preload="metadata" src={src} aria-label={block.content.title || 'Аудио'} />
          ) : (
            <Placeholder>Аудио не загружено</Placeholder>
          )}
          {block.content.description && <figcaption>{block.content.description}</figcaption>}
        </Figure>
      );
    }
    case 'file': {
      const src = block.content.src || block.content.url;
      const name = block.content.name || 'Файл';
      return (
        <FileRow>
          <span aria-hidden="true">📄</span>
          <div>
            <strong>{name}</strong>
            {block.content.size && <small> · {block.content.size} МБ</small>}
            {block.content.description && <p>{block.content.description}</p>}
          </div>
          {src ? (
            <a href={src} download={name} rel="noopener">
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
    default:
      return <Unknown role="note">{PROGRESS_MSG.unknownBlockType}</Unknown>;
  }
}

const Heading = styled.h3`
  margin: 8px 0 0;
`;
const Text = styled.p`
  margin: 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
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
const MediaTitle = styled.strong`
  font-size: 15px;
`;
const Placeholder = styled.div`
  display: grid;
  place-items: center;
  min-height: 160px;
  padding: 16px;
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
