/** What a form's fields do not show of a refusal (useServerProblems), said once for the whole form. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="form-error">
      {message}
    </p>
  );
}
