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
	"encoding/json"
	"errors"
	"fmt"
	"iter"

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

// UnitTasks plans the planning unit u of a scan ([table.Scan.Units],
// possibly made on another machine and decoded from JSON) on fsys and
// yields its tasks: for Iceberg, those of the unit's manifests in the
// snapshot it pins (iceberg.UnitTasks); for Paimon and Hudi, whose scans
// are one unit, every task of the scan of the table at u.Location, planned
// here. warn receives the scan's warnings (nil drops them). Format options
// that do not decode are [table.ErrInvalidUnit]; other errors are those of
// Open and of the scan. The first error ends the sequence.
func UnitTasks(ctx context.Context, fsys storage.FS, u table.Unit, warn func(string)) iter.Seq2[table.Task, error] {
	return func(yield func(table.Task, error) bool) {
		fo, err := unitFormatOptions(u)
		if err != nil {
			yield(table.Task{}, fmt.Errorf("%s table %s: %w", u.Format, u.Location, err))
			return
		}
		opts, err := u.Options.ScanOptions(fo, warn)
		if err != nil {
			yield(table.Task{}, fmt.Errorf("%s table %s: %w", u.Format, u.Location, err))
			return
		}
		var tasks iter.Seq2[table.Task, error]
		if u.Format == table.Iceberg {
			tasks = iceberg.UnitTasks(ctx, fsys, u, opts)
		} else {
			t, err := Open(ctx, fsys, u.Location)
			if err != nil {
				yield(table.Task{}, err)
				return
			}
			if t.Format() != u.Format {
				yield(table.Task{}, fmt.Errorf("%s table %s: %w: the location holds a %s table", u.Format, u.Location, table.ErrInvalidUnit, t.Format()))
				return
			}
			tasks = t.NewScan(opts).Tasks(ctx)
		}
		for task, err := range tasks {
			if !yield(task, err) || err != nil {
				return
			}
		}
	}
}

// unitFormatOptions decodes the format options of u (nil when it has none).
func unitFormatOptions(u table.Unit) (table.FormatOptions, error) {
	raw := u.Options.FormatOptions
	if len(raw) == 0 {
		return nil, nil
	}
	var o table.FormatOptions
	var err error
	switch u.Format {
	case table.Iceberg:
		var v iceberg.Options
		err = json.Unmarshal(raw, &v)
		o = v
	case table.Paimon:
		var v paimon.Options
		err = json.Unmarshal(raw, &v)
		o = v
	case table.Hudi:
		var v hudi.Options
		err = json.Unmarshal(raw, &v)
		o = v
	default:
		return nil, fmt.Errorf("%w: format %q", table.ErrInvalidUnit, u.Format)
	}
	if err != nil && !errors.Is(err, table.ErrInvalidUnit) {
		err = fmt.Errorf("%w: %s options: %w", table.ErrInvalidUnit, u.Format, err)
	}
	return o, err
}
