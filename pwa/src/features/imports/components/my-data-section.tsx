import { myDataPath } from '../api/exports.ts';

/** Settings: a person takes their own data with them (issue 17), as one JSON file. */
export function MyDataSection() {
  return (
    <section className="card" aria-labelledby="my-data-heading">
      <h2 id="my-data-heading">Your data</h2>
      <p>
        Download what we keep about you — your profile, family, purchases and bookings — as one
        file.
      </p>
      <a className="button button-secondary" href={myDataPath} download>
        Download my data
      </a>
    </section>
  );
}
