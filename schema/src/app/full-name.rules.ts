/**
 * How a person's name is shown wherever it is one string: first and last name, the middle name
 * left out (spec §3 Roster item `fullName`), trimmed so a missing part leaves no stray space.
 * The server builds documents and emails with it, the PWA its lists: both say the same name.
 */
export const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();
