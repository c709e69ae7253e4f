import { ApiError, errorMessageOf } from './api-error';
import type { ApiClient } from './client';

/** The file as Base64 (without the data: URL's prefix). */
function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new ApiError(0, `Could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/**
 * Uploads a file as a new resource (POST /api/v3/resources.json, the file in Base64) and
 * reports the bytes sent as they go: XMLHttpRequest, since fetch reports no upload progress.
 */
export async function uploadResource(
  api: ApiClient,
  file: File,
  description: string,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const body = JSON.stringify({
    resource: {
      description,
      file: { file_name: file.name, content_type: file.type || 'application/octet-stream', file_data: await readAsBase64(file) },
    },
  });
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v3/resources.json');
    xhr.setRequestHeader('Authorization', api.authorization());
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload could not reach the server.'));
    xhr.onload = () => {
      if (xhr.status === 401) {
        reject(api.tokenRefused());
      } else if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new ApiError(xhr.status, errorMessageOf(xhr.status, xhr.responseText)));
      }
    };
    xhr.send(body);
  });
}
