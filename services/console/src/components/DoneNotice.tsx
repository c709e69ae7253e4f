/** What just succeeded, for the user to read: announced to screen readers as it appears. */
export function DoneNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="notice notice-ok" role="status">
      {message}
    </p>
  );
}
