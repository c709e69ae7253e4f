import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { describeResource, downloadResource, listResources } from '../api/endpoints';
import type { ResourceDetail, ResourceSummary } from '../api/types';
import { EmptyState } from '../components/EmptyState';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loaded } from '../components/Loaded';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';
import { ResourceUpload } from './ResourceUpload';
import { SpreadsheetSummary } from './SpreadsheetSummary';
import { DataTable } from '../components/DataTable';

/** Resources: the list, upload, download, and a spreadsheet's summary. */
export function ResourcesPage({ api }: { api: ApiClient }) {
  const { state, reload } = useLoad(() => listResources(api), [api]);
  const [described, setDescribed] = useState<ResourceDetail | null>(null);
  const action = useAction();

  const download = (resource: ResourceSummary) =>
    action.run(async () => {
      const blob = await downloadResource(api, resource.id);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = resource.original_filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });

  const describe = (resource: ResourceSummary) =>
    action.run(async () => {
      setDescribed(await describeResource(api, resource.id));
    });

  return (
    <section aria-labelledby="resources-title">
      <h1 id="resources-title">Resources</h1>
      <ResourceUpload api={api} onUploaded={() => void reload()} />
      <ErrorNotice message={action.error} />
      <Loaded state={state}>
        {(resources) =>
          resources.length === 0 ? (
            <EmptyState title="No resource yet.">Upload a file above: forms can use it as an image, a document or a list of choices.</EmptyState>
          ) : (
            <DataTable
              label="Resources"
              columns={['File', 'Description', 'Version']}
              items={resources}
              row={(r) => (
                <tr key={r.id} data-resource={r.id}>
                  <td>{r.original_filename}</td>
                  <td>{r.description || '—'}</td>
                  <td>{r.version}</td>
                  <td class="actions">
                    <button type="button" class="secondary" onClick={() => download(r)} aria-label={`Download ${r.original_filename}`}>
                      Download
                    </button>
                    <button type="button" class="secondary" onClick={() => describe(r)} aria-label={`Summary of ${r.original_filename}`}>
                      Summary
                    </button>
                  </td>
                </tr>
              )}
            />
          )
        }
      </Loaded>
      {described ? <SpreadsheetSummary resource={described} /> : null}
    </section>
  );
}
