// Each replica document's revision height on this device — the N of RxDB's `_rev` "N-hash":
// every write of the document here, a pulled one too, raises it — kept beside the plain object
// a screen reads (plainDocument). Two revisions written in the same millisecond share
// `updatedAt`; this tells which is the later.
const heights = new WeakMap<object, number>();

/** Records the revision (`"N-hash"`) a plain document was read at. */
export function noteRevision(document: object, revision: string | undefined): void {
  const height = Number.parseInt(revision ?? '', 10);
  if (Number.isSafeInteger(height)) heights.set(document, height);
}

/**
 * Where a document read from the replica stands among its own revisions on this device: the
 * later write has the greater height. Undefined for an object not read through plainDocument.
 */
export function revisionHeightOf(document: object): number | undefined {
  return heights.get(document);
}
