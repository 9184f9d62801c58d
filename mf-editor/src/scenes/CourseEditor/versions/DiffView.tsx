import styled from 'styled-components';
import type { StructureChange, VersionDiff } from '@portal/contracts';
import { Muted, PlainList } from '@portal/ui';
import { CHANGE_GROUPS, DIFF_SECTIONS, VERSIONS_UI, bankText, blockChangesText } from './texts';

/**
 * What differs between two versions: modules, lessons and quizzes, each grouped as «Добавлены»,
 * «Удалены», «Изменены»; a changed lesson names the blocks changed inside it; then the question bank.
 */
export function DiffView({ diff }: { diff: VersionDiff }) {
  const { bank } = diff;
  const bankChanged = bank.added + bank.removed + bank.changed > 0;
  const sections = (Object.keys(DIFF_SECTIONS) as Array<keyof typeof DIFF_SECTIONS>).filter((key) => diff[key].length > 0);
  if (sections.length === 0 && !bankChanged) return <Muted role="status">{VERSIONS_UI.noDifferences}</Muted>;
  return (
    <Box>
      {sections.map((key) => (
        <section key={key} aria-label={DIFF_SECTIONS[key]}>
          <h3>{DIFF_SECTIONS[key]}</h3>
          {CHANGE_GROUPS.map(({ kind, title }) => {
            const items = diff[key].filter((c) => c.kind === kind);
            return items.length === 0 ? null : (
              <Group key={kind}>
                <h4>{title}</h4>
                <PlainList $gap={4} aria-label={`${DIFF_SECTIONS[key]}: ${title.toLowerCase()}`}>
                  {items.map((item) => (
                    <ChangeItem key={item.id} item={item} blocks={key === 'lessons' ? diff.blocks[item.id] : undefined} />
                  ))}
                </PlainList>
              </Group>
            );
          })}
        </section>
      ))}
      {bankChanged && <p>{bankText(bank)}</p>}
    </Box>
  );
}

function ChangeItem({ item, blocks }: { item: StructureChange; blocks?: VersionDiff['blocks'][string] }) {
  return (
    <li>
      {item.title}
      {item.kind === 'changed' && blocks && <Muted as="span"> · {blockChangesText(blocks)}</Muted>}
    </li>
  );
}

const Box = styled.div`
  display: grid;
  gap: 16px;
  h3 {
    margin: 0 0 8px;
    font-size: 16px;
  }
  p {
    margin: 0;
  }
`;
const Group = styled.div`
  margin-bottom: 8px;
  h4 {
    margin: 0 0 4px;
    font-size: 14px;
    font-weight: 600;
  }
  li {
    overflow-wrap: anywhere;
  }
`;
