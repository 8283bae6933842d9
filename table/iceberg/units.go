package iceberg

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/internal/scanplan"
)

// units makes the planning units of a scan of t with opts (base: its
// options as unit options): the manifest list read and pruned as
// [Table.Plan] does, its data manifests grouped in order into runs of at
// most opts.UnitBytes bytes, each unit carrying every delete manifest; and
// the scan's listing without files.
func (t *Table) units(ctx context.Context, opts table.ScanOptions, base table.UnitOptions) (*scanplan.Stream, []table.Unit, error) {
	o, err := scanplan.Options[Options](table.Iceberg, opts.Options)
	if err != nil {
		return nil, nil, err
	}
	s, manifests, _, err := t.start(ctx, scanOptions(opts, o))
	if err != nil || s.Snapshot == nil {
		return nil, nil, err
	}
	if s.ReadSchema == nil {
		return nil, nil, fmt.Errorf("iceberg: %s: %w: no current schema", t.MetadataPath, table.ErrInvalidUnit)
	}
	// The unit pins the snapshot and the read schema: its worker does not
	// choose them again.
	base.SnapshotID, base.AsOf = nil, nil
	var data [][]table.ManifestRef
	var deletes []table.ManifestRef
	limit := opts.UnitBytes
	if limit == 0 {
		limit = table.DefaultUnitBytes
	}
	var size int64
	for _, mf := range manifests {
		ref := table.ManifestRef{Path: mf.Path, Length: mf.Length, SpecID: mf.SpecID, Content: mf.Content,
			SequenceNumber: mf.SequenceNumber, AddedSnapshotID: mf.AddedSnapshotID, Files: mf.Files}
		if mf.Content == 1 {
			deletes = append(deletes, ref)
			continue
		}
		n := max(mf.Length, 1)
		if len(data) == 0 || limit < 0 || size+n > limit {
			data, size = append(data, nil), 0
		}
		data[len(data)-1] = append(data[len(data)-1], ref)
		size += n
	}
	units := make([]table.Unit, len(data))
	for i, refs := range data {
		units[i] = table.Unit{Format: table.Iceberg, Location: t.Location(), Index: i, Count: len(data), Options: base,
			Iceberg: &table.IcebergUnit{MetadataPath: t.MetadataPath, Root: t.Root, Version: t.Version, Guessed: t.Guessed,
				SnapshotID: s.Snapshot.SnapshotID, SchemaID: s.ReadSchema.ID, Manifests: refs, DeleteManifests: deletes}}
	}
	return &scanplan.Stream{Listing: s.listing(), PartitionType: s.PartitionType(s.ReadSchema)}, units, nil
}

// UnitTasks plans the Iceberg planning unit u ([table.Scan.Units]) on
// fsys with opts (u.Options as scan options; its snapshot choice is
// ignored, u pins it): it reads u's metadata file, its delete manifests,
// then its data manifests, and yields their tasks as a scan's Tasks does,
// the same tasks in the same order as [table.Scan.Plan] gives for them.
// A snapshot or schema id the metadata file lacks is
// [table.ErrInvalidUnit]; other errors are those of [Table.Tasks]. The
// first error ends the sequence.
func UnitTasks(ctx context.Context, fsys storage.FS, u table.Unit, opts table.ScanOptions) iter.Seq2[table.Task, error] {
	return func(yield func(table.Task, error) bool) {
		if u.Format != table.Iceberg || u.Iceberg == nil {
			yield(table.Task{}, fmt.Errorf("iceberg: %w: a %s unit", table.ErrInvalidUnit, u.Format))
			return
		}
		iu := u.Iceberg
		md, err := ReadMetadata(ctx, fsys, iu.MetadataPath)
		if err != nil {
			yield(table.Task{}, err)
			return
		}
		t := &Table{FS: fsys, MetadataPath: iu.MetadataPath, Root: iu.Root, Version: iu.Version, Guessed: iu.Guessed, Metadata: md, opened: u.Location}
		opts.SnapshotID, opts.AsOf = nil, time.Time{}
		stream := func(ctx context.Context) (*scanplan.Stream, error) { return t.streamUnit(ctx, opts, iu) }
		sc := scanplan.NewStreaming(fsys, table.Iceberg, t.Location(), opts, nil, stream, nil)
		for task, err := range sc.Tasks(ctx) {
			if !yield(task, err) || err != nil {
				return
			}
		}
	}
}

// streamUnit is [Table.stream] over the manifests of the unit iu, in the
// snapshot and read schema it pins.
func (t *Table) streamUnit(ctx context.Context, opts table.ScanOptions, iu *table.IcebergUnit) (*scanplan.Stream, error) {
	o, err := scanplan.Options[Options](table.Iceberg, opts.Options)
	if err != nil {
		return nil, err
	}
	so := scanOptions(opts, o)
	md := t.Metadata
	snap := md.SnapshotByID(iu.SnapshotID)
	if snap == nil {
		return nil, fmt.Errorf("iceberg: %s: %w: no snapshot %d", t.MetadataPath, table.ErrInvalidUnit, iu.SnapshotID)
	}
	read := md.SchemaByID(iu.SchemaID)
	if read == nil {
		return nil, fmt.Errorf("iceberg: %s: %w: no schema %d", t.MetadataPath, table.ErrInvalidUnit, iu.SchemaID)
	}
	s := &Scan{Table: t, Metadata: md, Snapshot: snap, ReadSchema: read, Paths: t.PathResolution(so)}
	manifests := make([]ManifestFile, 0, len(iu.DeleteManifests)+len(iu.Manifests))
	for _, refs := range [][]table.ManifestRef{iu.DeleteManifests, iu.Manifests} {
		for _, r := range refs {
			manifests = append(manifests, ManifestFile{Path: r.Path, Length: r.Length, SpecID: r.SpecID, Content: r.Content,
				SequenceNumber: r.SequenceNumber, AddedSnapshotID: r.AddedSnapshotID, Files: r.Files})
		}
	}
	files, err := t.streamManifests(ctx, s, t.resolver(so), manifests, workers(so))
	if err != nil {
		return nil, err
	}
	return t.streamOf(s, opts, files), nil
}
