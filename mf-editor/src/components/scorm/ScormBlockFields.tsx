import { useState } from 'react';
import styled from 'styled-components';
import type { ScormBlockContent, ScormPackageSummary } from '@portal/contracts';
import { CheckLabel, Label, Muted, Select } from '@portal/ui';
import { ScormUpload } from './ScormUpload';

export const SCORM_BLOCK_MSG = {
  upload: 'Загрузить SCORM-пакет (.zip)',
  replace: 'Заменить пакет (.zip)',
  noPackage: 'Пакет не загружен',
  saveCourseFirst: 'Сохраните курс, чтобы загрузить в него SCORM-пакет',
  sco: 'Учебный объект (SCO)',
  allowNewAttempt: 'Разрешить новую попытку после прохождения',
  version: (version: string) => `SCORM ${version}`,
} as const;

/** What a block keeps of a package and one of its SCOs. */
export function scormBlockOf(pkg: ScormPackageSummary, scoId: string): Partial<ScormBlockContent> {
  const sco = pkg.scos.find((s) => s.id === scoId) ?? pkg.scos[0];
  const several = pkg.scos.length > 1;
  return {
    packageId: pkg.id,
    scoId: sco?.id,
    // A package of several SCOs names the one this lesson plays.
    title: several && sco ? `${pkg.title}: ${sco.title}` : pkg.title,
    version: pkg.version,
  };
}

interface ScormBlockFieldsProps {
  content: ScormBlockContent;
  courseId: string | null;
  onChange: (content: Record<string, unknown>) => void;
}

/** The «SCORM-пакет» block's panel: the package uploaded for it, the SCO it plays, the attempt setting. */
export function ScormBlockFields({ content, courseId, onChange }: ScormBlockFieldsProps) {
  // The package just uploaded here: its SCOs are offered to choose from.
  const [pkg, setPkg] = useState<ScormPackageSummary | null>(null);
  return (
    <>
      <Card aria-label="SCORM-пакет блока">
        {content.packageId ? (
          <>
            <strong>{content.title || SCORM_BLOCK_MSG.noPackage}</strong>
            {(pkg || content.version) && (
              <Muted>
                {pkg
                  ? `${SCORM_BLOCK_MSG.version(pkg.edition)} · файлов: ${pkg.files}`
                  : SCORM_BLOCK_MSG.version(content.version ?? '')}
              </Muted>
            )}
          </>
        ) : (
          <Muted>{SCORM_BLOCK_MSG.noPackage}</Muted>
        )}
      </Card>
      {courseId ? (
        <ScormUpload
          label={content.packageId ? SCORM_BLOCK_MSG.replace : SCORM_BLOCK_MSG.upload}
          courseId={courseId}
          mode="lesson"
          autoFocus={!content.packageId}
          onUploaded={(uploaded) => {
            setPkg(uploaded);
            onChange(scormBlockOf(uploaded, uploaded.scos[0]?.id ?? ''));
          }}
        />
      ) : (
        <Muted role="note">{SCORM_BLOCK_MSG.saveCourseFirst}</Muted>
      )}
      {pkg && pkg.scos.length > 1 && (
        <Label>
          {SCORM_BLOCK_MSG.sco}
          <Select value={content.scoId ?? ''} onChange={(e) => onChange(scormBlockOf(pkg, e.target.value))}>
            {pkg.scos.map((sco) => (
              <option key={sco.id} value={sco.id}>
                {[...sco.path, sco.title].join(' / ')}
              </option>
            ))}
          </Select>
        </Label>
      )}
      <CheckLabel>
        <input
          type="checkbox"
          checked={!!content.allowNewAttempt}
          onChange={(e) => onChange({ allowNewAttempt: e.target.checked })}
        />
        {SCORM_BLOCK_MSG.allowNewAttempt}
      </CheckLabel>
    </>
  );
}

const Card = styled.section`
  display: grid;
  gap: 4px;
  padding: 12px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  p {
    margin: 0;
    font-size: 13px;
    overflow-wrap: anywhere;
  }
`;
