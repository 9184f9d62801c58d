import styled from 'styled-components';
import type { ProgramReport } from '@portal/contracts';
import { Card } from '@portal/ui';

/** A program report's cards: assigned, completed, overdue, percent complete. */
export function ReportFigures({ report }: { report: ProgramReport }) {
  return (
    <Figures aria-label="Итоги программы" data-testid="program-report">
      <Figure>
        <span>Назначено</span>
        <strong>{report.assigned}</strong>
      </Figure>
      <Figure>
        <span>Прошли программу</span>
        <strong>{report.completed}</strong>
      </Figure>
      <Figure $danger={report.overdue > 0}>
        <span>С просрочкой</span>
        <strong>{report.overdue}</strong>
      </Figure>
      <Figure>
        <span>Выполнено</span>
        <strong>{report.percent}%</strong>
      </Figure>
    </Figures>
  );
}

const Figures = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(140px, 100%), 1fr));
  gap: 12px;
  margin: 16px 0;
`;

const Figure = styled(Card)<{ $danger?: boolean }>`
  display: grid;
  gap: 4px;
  padding: 16px;
  color: ${({ theme, $danger }) => ($danger ? theme.colors.danger : 'inherit')};
  strong {
    font-size: 24px;
  }
`;
