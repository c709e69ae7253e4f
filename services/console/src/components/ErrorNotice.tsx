/** An error the user should read: announced to screen readers as it appears. */
export function ErrorNotice({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p class="notice notice-error" role="alert">
      {message}
    </p>
  );
}
