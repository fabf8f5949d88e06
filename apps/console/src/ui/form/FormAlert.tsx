/**
 * What a form's fields do not show of a refusal (useServerProblems), said once for the whole form;
 * or, when `done` is given, the sentence that says the form's request went through.
 */
export function FormAlert({ message, done }: { message: string | null | undefined; done?: string | null | false }) {
  if (message) {
    return (
      <p role="alert" className="form-error">
        {message}
      </p>
    );
  }
  if (!done) return null;
  return (
    <p role="status" className="form-ok">
      {done}
    </p>
  );
}
