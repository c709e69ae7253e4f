import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { uploadResource } from '../api/upload-resource';
import { DoneNotice } from '../components/DoneNotice';
import { ErrorNotice } from '../components/ErrorNotice';
import { useAction } from '../hooks/use-action';

/** Upload a file as a new resource, with a progress bar. */
export function ResourceUpload({ api, onUploaded }: { api: ApiClient; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const upload = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(null);
    if (file === null) {
      await upload.run(async () => {
        throw new Error('Choose a file to upload.');
      });
      return;
    }
    setProgress(0);
    const ok = await upload.run(() => uploadResource(api, file, description, setProgress));
    if (ok) {
      setDone(`${file.name} is uploaded.`);
      setDescription('');
      onUploaded();
    } else {
      setProgress(null);
    }
  };

  return (
    <form class="card upload" onSubmit={submit}>
      <h2>Upload</h2>
      <div class="field">
        <label for="resource-file">File (images, PDF, text, XML, JSON, .xlsx, .docx, map overlays)</label>
        <input id="resource-file" type="file" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      </div>
      <div class="field">
        <label for="resource-description">Description</label>
        <input id="resource-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </div>
      {progress !== null ? (
        <div class="field">
          <label for="resource-progress">Uploaded</label>
          <progress id="resource-progress" max={1} value={progress}>
            {Math.round(progress * 100)}%
          </progress>
        </div>
      ) : null}
      <ErrorNotice message={upload.error} />
      <DoneNotice message={done} />
      <button type="submit" disabled={upload.busy}>
        {upload.busy ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}
