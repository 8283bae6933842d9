// Package open opens a table of whichever format a location holds: it
// tells the format ([table.Detect]) and opens the table with that format's
// package (table/iceberg, table/paimon or table/hudi).
//
// It is a package of its own because the format packages import package
// table (for [table.Task], [table.Scan], …): package table cannot import
// them back, and a registry filled by the format packages' init functions
// would make [Open] depend on which of them a program happens to link.
package open

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/paimon"
)

// Open opens the table at location on fsys: an Iceberg table folder or
// metadata file (the current metadata found by iceberg.FindMetadata), a
// Paimon table folder (its main branch; paimon.Options Branch scans
// another) or a Hudi table folder. It reads the metadata it needs to
// answer [table.Table.Format] and [table.Table.Location]; scans read the
// rest. Errors are those of [table.Detect] (table.ErrNotATable for a
// location that holds no table) and of the format's Open.
//
// Open reads every path the metadata names through fsys as it is; to keep
// a table's reads inside its own folder, pass a confined FS
// (storage.Confine with [table.Root] of location).
func Open(ctx context.Context, fsys storage.FS, location string) (table.Table, error) {
	format, err := table.Detect(ctx, fsys, location)
	if err != nil {
		return nil, err
	}
	var t table.Table
	switch format {
	case table.Iceberg:
		t, err = iceberg.Open(ctx, fsys, location)
	case table.Paimon:
		t, err = paimon.Open(ctx, fsys, location, "")
	default:
		t, err = hudi.Open(ctx, fsys, location)
	}
	if err != nil {
		return nil, fmt.Errorf("%s table %s: %w", format, location, err)
	}
	return t, nil
}
