import { useMutation, useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import { Button, Dialog, ErrorBox, Loading, LoadError, Muted, PlainList, Spread } from '@portal/ui';
import { errorMessage, navigate, paths } from '@portal/web-core';
import { copyProgramTemplate, fetchProgramTemplates, programKeys } from '../../api/programs';
import { stageCount } from '../../components/programs/format';

/** «Из шаблона»: the ready structures (stages and deadlines, no courses); a copy opens in the editor. */
export function TemplatesDialog({ onClose }: { onClose: () => void }) {
  const templates = useQuery({ queryKey: programKeys.templates, queryFn: ({ signal }) => fetchProgramTemplates(signal) });
  const copy = useMutation({
    mutationFn: copyProgramTemplate,
    onSuccess: (program) => navigate(paths.programEditor(program.id)),
  });

  return (
    <Dialog title="Программа из шаблона" onClose={onClose} wide>
      {templates.isPending ? (
        <Loading />
      ) : templates.isError ? (
        <LoadError title="Не удалось загрузить шаблоны" error={templates.error} onRetry={() => void templates.refetch()} />
      ) : (
        <PlainList $gap={12} aria-label="Шаблоны программ">
          {templates.data.map((t) => (
            <Template key={t.key} aria-label={t.title}>
              <div>
                <strong>{t.title}</strong>
                <Muted>{t.description}</Muted>
                <Muted>
                  {stageCount(t.stages.length)}: {t.stages.map((s) => s.title).join(' → ')}
                </Muted>
              </div>
              <Button
                type="button"
                $variant="outline"
                disabled={copy.isPending}
                aria-label={`Скопировать шаблон «${t.title}»`}
                onClick={() => copy.mutate(t.key)}
              >
                Скопировать
              </Button>
            </Template>
          ))}
        </PlainList>
      )}
      {copy.isError && <ErrorBox>{errorMessage(copy.error, 'Не удалось скопировать шаблон')}</ErrorBox>}
      <Muted>В копии шаблона будут этапы и сроки; курсы в этапы добавьте сами.</Muted>
    </Dialog>
  );
}

const Template = styled(Spread).attrs({ as: 'li' })`
  padding: 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 10px;
  div {
    flex: 1 1 240px;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  p {
    margin: 4px 0 0;
  }
`;
