import styled from 'styled-components';

/** The texts of an author's «Просмотр как слушатель». */
export const PREVIEW_MSG = {
  title: 'Просмотр как слушатель',
  note: 'Так курс видят слушатели. Ничего не записывается: ни прохождение уроков, ни попытки квизов.',
  backToEditor: 'Вернуться в редактор',
  completedHere: 'Отмечен только в этом просмотре',
} as const;

/** Where a lesson's blocks would be: nothing chosen yet, or a lesson with no blocks. */
export const Placeholder = styled.div`
  display: grid;
  place-items: center;
  gap: 4px;
  min-height: 240px;
  text-align: center;
  border: 2px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  h3 {
    margin: 0;
  }
  p {
    margin: 0;
  }
`;
