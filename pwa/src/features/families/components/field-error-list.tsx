/** A failure above a form, in red, with the server's reasons listed under it (spec §8). */
export function FieldErrorList({ title, messages }: { title: string; messages: string[] }) {
  return (
    <div className="form-error" role="alert">
      <p className="family-error-title">{title}</p>
      {messages.length > 0 && (
        <ul className="family-error-list">
          {messages.map((message, index) => (
            <li key={index}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
