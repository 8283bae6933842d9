// Package table is lakecat's table layer: a [Table] of one format
// (Iceberg, Paimon or Hudi) with its schemas and snapshots, a [Scan] of it
// planned into [Task] values, and the one rule that tells the formats
// apart ([Detect]). A task is a plain value that can travel to another
// process or machine as JSON and be read there with reader.ReadTask.
//
//	tbl, err := open.Open(ctx, fsys, "warehouse/db/orders") // package table/open
//	scan := tbl.NewScan(table.ScanOptions{Columns: []string{"id", "name"}})
//	for task, err := range scan.Tasks(ctx) { … }
//
// Each table format's own rules — where the current metadata is, which
// files are live, which deletes apply, how a commit is written — live in
// exactly one package: table/iceberg, table/paimon and table/hudi, each of
// whose *Table implements [Table] and whose Options are the format's
// [ScanOptions.Options]. The reader, evolve and the command line all use
// them.
package table

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

// Format is a table format.
type Format string

// The table formats, as [Detect] tells them from a folder's layout.
const (
	Iceberg Format = "iceberg" // metadata/ (or a *.metadata.json named directly)
	Paimon  Format = "paimon"  // schema/ with snapshot/ or branch/, or schema/schema-N alone
	Hudi    Format = "hudi"    // .hoodie/
)

// ErrNotATable is matched by the error of [Detect] for a location that holds
// no table of a known format.
var ErrNotATable = lakecat.NewSentinel(lakecat.ErrNotFound, "table: not an Iceberg, Paimon or Hudi table")

// Detect tells the format of the table at location, from the names directly
// inside it, in this order (the first match wins):
//
//  1. a location ending in ".metadata.json" or ".metadata.json.gz": Iceberg
//     (a metadata file named directly);
//  2. .hoodie/: Hudi (Hudi writes nothing else at the top that the others
//     use);
//  3. schema/ with snapshot/ or branch/: Paimon; schema/ alone holding a
//     schema-N file: Paimon, a table created but never written;
//  4. metadata/, or a location that is itself a folder named "metadata":
//     Iceberg.
//
// Otherwise it returns an error matching [ErrNotATable]; a location that
// cannot be listed returns the storage's error (matching fs.ErrNotExist
// when missing).
func Detect(ctx context.Context, fsys storage.FS, location string) (Format, error) {
	if strings.HasSuffix(location, ".metadata.json") || strings.HasSuffix(location, ".metadata.json.gz") {
		return Iceberg, nil
	}
	names, err := fsys.List(ctx, location)
	if err != nil {
		return "", fmt.Errorf("%s: %w", location, err)
	}
	has := func(n string) bool {
		i := sort.SearchStrings(names, n)
		return i < len(names) && names[i] == n
	}
	switch {
	case has(".hoodie"):
		return Hudi, nil
	case has("schema") && (has("snapshot") || has("branch")):
		return Paimon, nil
	case has("schema") && hasSchemaFile(ctx, fsys, storage.JoinPath(location, "schema")):
		return Paimon, nil
	case has("metadata"):
		return Iceberg, nil
	case storage.BaseName(location) == "metadata":
		return Iceberg, nil
	}
	return "", fmt.Errorf("%w: %s", ErrNotATable, location)
}

// hasSchemaFile reports whether dir holds a Paimon schema-N file.
func hasSchemaFile(ctx context.Context, fsys storage.FS, dir string) bool {
	names, err := fsys.List(ctx, dir)
	if err != nil {
		return false
	}
	for _, n := range names {
		if strings.HasPrefix(n, "schema-") {
			return true
		}
	}
	return false
}
