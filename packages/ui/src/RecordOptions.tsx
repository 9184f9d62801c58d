import { TitleOptions } from './Field';

interface RecordOptionsProps {
  /** The records to choose from, each valued by its id and said by its title; undefined while they are read. */
  records: ReadonlyArray<{ id: string; title: string }> | undefined;
  /** The records are on their way: the empty choice says «Загрузка...». */
  loading: boolean;
  /** The empty choice's text once they are here: «Выберите опубликованный курс». */
  placeholder: string;
}

/** A select's `<option>`s over records (courses): the empty choice first, then each record by its title. */
export function RecordOptions({ records, loading, placeholder }: RecordOptionsProps) {
  return (
    <>
      <option value="">{loading ? 'Загрузка...' : placeholder}</option>
      <TitleOptions items={records ?? []} />
    </>
  );
}
