-- Hand-written (decision 0056): a tag never holds a comma (spec §5), and the roster document
-- schema now says so. Tags stored before the server refused commas are split at them, so
-- every stored roster item still reads as a document; the update moves the row's change
-- position (trigger), so devices pull the split tags.
UPDATE "roster_items"
SET
  "tags" = array(
    SELECT "tag"
    FROM (
      SELECT btrim("part") AS "tag", min("position") AS "first"
      FROM unnest(string_to_array(array_to_string("tags", ','), ',')) WITH ORDINALITY AS p("part", "position")
      GROUP BY btrim("part")
    ) AS "split"
    WHERE "tag" <> ''
    ORDER BY "first"
    LIMIT 50
  ),
  "updated_at" = now()
WHERE array_to_string("tags", '') LIKE '%,%';
