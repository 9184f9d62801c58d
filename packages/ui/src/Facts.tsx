import type { ReactNode } from 'react';
import { FactList } from './components';

/** One fact of a record: its name and its value. */
export type Fact = readonly [name: string, value: ReactNode];

/**
 * A record's facts as a definition list, each name beside its value, in the order given. A fact the
 * record does not have is passed as a falsy entry and left out: `org.site && ['Сайт', org.site]`.
 */
export function Facts({ facts, className }: { facts: ReadonlyArray<Fact | false | null | undefined | ''>; className?: string }) {
  return (
    <FactList className={className}>
      {facts
        .filter((fact): fact is Fact => !!fact)
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </FactList>
  );
}
