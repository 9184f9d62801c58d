import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CRM_MSG, formatMessage, type OrganizationListItem } from '@portal/contracts';
import { ConfirmDialog, useToast } from '@portal/ui';
import { readAgain } from '@portal/web-core/query';
import { crmKeys, deleteOrganization } from '../api/crm';
import { siteHref } from '../format';

/** An organization's site, opened in a new tab (never as a script: siteHref). */
export function SiteLink({ site }: { site: string }) {
  return (
    <a href={siteHref(site)} target="_blank" rel="noopener noreferrer">
      {site}
    </a>
  );
}

interface DeleteOrganizationProps {
  org: Pick<OrganizationListItem, 'id' | 'name'>;
  /** After the organization is gone and the lists are read again. */
  onDeleted?: () => void;
  /** The question is answered: deleted, failed (with its toast) or cancelled. */
  onClose: () => void;
}

/** «Удаление организации»: asks, then deletes the organization with its contacts (from its card or its page). */
export function DeleteOrganizationDialog({ org, onDeleted, onClose }: DeleteOrganizationProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: () => deleteOrganization(org.id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: crmKeys.organization(org.id) });
      await readAgain(queryClient, crmKeys.all);
      onDeleted?.();
    },
    onError: (err) => toast.failed(err, CRM_MSG.deleteOrgFailed),
    onSettled: onClose,
  });
  return (
    <ConfirmDialog
      title="Удаление организации"
      message={formatMessage(CRM_MSG.confirmDeleteOrg, { name: org.name })}
      confirmLabel="Удалить"
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    />
  );
}
