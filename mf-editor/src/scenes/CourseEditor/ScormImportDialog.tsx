import { useState } from 'react';
import styled from 'styled-components';
import type { ScormPackageSummary, ScormSco } from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ScormUpload } from '../../components/scorm/ScormUpload';

export const SCORM_IMPORT_MSG = {
  open: 'Импорт SCORM-пакета как курса',
  title: 'Импорт SCORM-пакета как курса',
  intro:
    'Модули и уроки курса будут построены из структуры пакета: каждый учебный объект (SCO) станет уроком. Уже созданные модули и уроки останутся.',
  file: 'SCORM-пакет (.zip)',
  built: 'Курс построен из пакета',
  done: 'Готово',
  cancel: 'Отмена',
} as const;

/** The outline a package builds: SCOs grouped by their outermost item (the module), in order. */
export function outlineOfPackage(pkg: Pick<ScormPackageSummary, 'title' | 'scos'>): { module: string; lessons: ScormSco[] }[] {
  const modules: { module: string; lessons: ScormSco[] }[] = [];
  for (const sco of pkg.scos) {
    const name = sco.path[0] ?? pkg.title;
    const last = modules[modules.length - 1];
    if (last?.module === name) last.lessons.push(sco);
    else modules.push({ module: name, lessons: [sco] });
  }
  return modules;
}

interface ScormImportDialogProps {
  courseId: string;
  onClose: () => void;
  /** The course was built: the editor reads its structure again. */
  onImported: () => void;
}

/** «Импорт SCORM-пакета как курса»: the package is uploaded with mode=course, then its outline is shown. */
export function ScormImportDialog({ courseId, onClose, onImported }: ScormImportDialogProps) {
  const [pkg, setPkg] = useState<ScormPackageSummary | null>(null);
  return (
    <Dialog title={SCORM_IMPORT_MSG.title} onClose={pkg ? onImported : onClose} wide>
      {pkg ? (
        <>
          <p>
            <strong>{SCORM_IMPORT_MSG.built}</strong> «{pkg.title}» · SCORM {pkg.edition}
          </p>
          <Outline aria-label={SCORM_IMPORT_MSG.built}>
            {outlineOfPackage(pkg).map((m, i) => (
              <li key={`${m.module}-${i}`}>
                <strong>{m.module}</strong>
                <ol>
                  {m.lessons.map((sco) => (
                    <li key={sco.id}>{sco.title}</li>
                  ))}
                </ol>
              </li>
            ))}
          </Outline>
          <DialogActions>
            <Button type="button" onClick={onImported}>
              {SCORM_IMPORT_MSG.done}
            </Button>
          </DialogActions>
        </>
      ) : (
        <>
          <Muted>{SCORM_IMPORT_MSG.intro}</Muted>
          <ScormUpload label={SCORM_IMPORT_MSG.file} courseId={courseId} mode="course" onUploaded={setPkg} autoFocus />
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              {SCORM_IMPORT_MSG.cancel}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

const Outline = styled.ol`
  display: grid;
  gap: 8px;
  margin: 0;
  padding-left: 20px;
  ol {
    margin: 4px 0 0;
    padding-left: 20px;
  }
`;
