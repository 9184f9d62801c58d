import styled from 'styled-components';
import { BoxList, Muted, PlainList } from '@portal/ui';
import type { PreviewRow, ProposalPreview as Preview } from '../../model/proposal';

/**
 * A proposal rendered readably before anything changes: a lesson's blocks, a module's lessons with
 * their blocks, or a quiz's questions with the right answers marked. Texts are shown as text
 * (never as HTML): they came from a generator.
 */
export function ProposalPreview({ preview }: { preview: Preview }) {
  switch (preview.kind) {
    case 'lesson':
      return (
        <Body>
          <h3>{preview.title}</h3>
          <Rows rows={preview.rows} level={4} />
        </Body>
      );
    case 'module':
      return (
        <Body>
          <h3>{preview.title}</h3>
          {preview.description && <Paragraph>{preview.description}</Paragraph>}
          <LessonList aria-label="Уроки модуля">
            {preview.lessons.map((lesson, i) => (
              <li key={i}>
                <h4>{lesson.title}</h4>
                {lesson.description && <Muted>{lesson.description}</Muted>}
                <Rows rows={lesson.rows} level={5} />
              </li>
            ))}
          </LessonList>
        </Body>
      );
    case 'quiz':
      return (
        <Body>
          <h3>{preview.title}</h3>
          <Questions as="ol" $gap={14} aria-label="Вопросы квиза">
            {preview.questions.map((q) => (
              <li key={q.number}>
                <p>
                  <strong>
                    {q.number}. {q.text}
                  </strong>{' '}
                  <Muted as="span">({q.typeLabel})</Muted>
                </p>
                <PlainList $gap={4}>
                  {q.options.map((option, i) => (
                    <Option key={i} $correct={option.correct}>
                      <span aria-hidden="true">{option.correct ? '✓' : '○'}</span>
                      <span>
                        {option.text}
                        {option.correct && <Hint> — правильный ответ</Hint>}
                      </span>
                    </Option>
                  ))}
                </PlainList>
                <Explanation>
                  <strong>Пояснение:</strong> {q.explanation}
                </Explanation>
              </li>
            ))}
          </Questions>
        </Body>
      );
  }
}

function Rows({ rows, level }: { rows: PreviewRow[]; level: 4 | 5 }) {
  const Heading = level === 4 ? 'h4' : 'h5';
  return (
    <PlainList as="ol" $gap={8} aria-label="Блоки предложения">
      {rows.map((row, i) => (
        <li key={i}>
          {row.kind === 'heading' && <Heading>{row.text}</Heading>}
          {row.kind === 'text' && <Paragraph>{row.text}</Paragraph>}
          {row.kind === 'media' && (
            <Media>
              <strong>{row.label}</strong> (место для материала): {row.suggestion}
            </Media>
          )}
        </li>
      ))}
    </PlainList>
  );
}

const Body = styled.div`
  display: grid;
  gap: 10px;
  h3,
  h4,
  h5 {
    margin: 0;
    overflow-wrap: anywhere;
  }
  h3 {
    font-size: 18px;
  }
  h4 {
    font-size: 16px;
  }
  h5 {
    font-size: 15px;
  }
  p {
    margin: 0;
  }
`;
const Paragraph = styled.p`
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  line-height: 1.5;
`;
const Media = styled.p`
  padding: 8px 10px;
  font-size: 14px;
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  color: ${({ theme }) => theme.colors.muted};
  overflow-wrap: anywhere;
  strong {
    color: ${({ theme }) => theme.colors.text};
  }
`;
const LessonList = styled.ol`
  margin: 0;
  padding: 0 0 0 20px;
  display: grid;
  gap: 14px;
  > li {
    display: grid;
    gap: 6px;
  }
`;
const Questions = styled(BoxList)`
  > li {
    display: grid;
    gap: 6px;
  }
`;
const Option = styled.li<{ $correct: boolean }>`
  display: flex;
  gap: 8px;
  overflow-wrap: anywhere;
  font-weight: ${({ $correct }) => ($correct ? 600 : 400)};
  color: ${({ theme, $correct }) => ($correct ? theme.colors.success : theme.colors.text)};
`;
const Hint = styled.span`
  font-weight: 400;
`;
const Explanation = styled.p`
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;
