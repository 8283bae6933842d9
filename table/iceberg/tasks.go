package iceberg

import (
	"context"
	"iter"
	"sync"

	"github.com/lakecat/lakecat/internal/parallel"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// Task returns the task that reads the data file f of the scan in read (nil:
// [Scan.ReadSchema]): the resolved path, the table's name mapping
// (schema.name-mapping.default, for files without field ids), the
// promotion rules of the table's format version, the identity-partition
// constants ([Scan.IdentityConstants]), the sequence numbers and the delete
// files that apply ([Scan.DeletesFor]), with the equality key fields of
// the table schema ([DeleteSchema]) and, for position deletes, the scan's
// path rules. Errors are those of the name mapping's parser.
func (s *Scan) Task(f *DataFile, read *schema.Schema) (table.Task, error) {
	if read == nil {
		read = s.ReadSchema
	}
	nm, err := s.nameMapping()
	if err != nil {
		return table.Task{}, err
	}
	rules := "iceberg-v2"
	if s.Metadata.FormatVersion >= 3 {
		rules = "iceberg-v3"
	}
	deletes := s.DeletesFor(f)
	var paths *table.PathResolution
	for _, d := range deletes {
		if d.Content == table.PositionDeletes {
			paths = s.Paths
		}
	}
	return table.Task{
		Path: f.Path, StoredPath: f.StoredPath, Format: f.Format, SizeBytes: f.SizeBytes, RecordCount: f.RecordCount,
		FileSchemaID: -1, ReadSchema: read, NameMapping: nm, Rules: rules,
		Constants: s.IdentityConstants(f, read), SpecID: f.SpecID,
		SequenceNumber: f.SequenceNumber, FileSequenceNumber: f.FileSequenceNumber,
		Deletes: deletes, DeleteSchema: DeleteSchema(s.ReadSchema, deletes), Paths: paths,
	}, nil
}

// nameMapping parses the table's name mapping once per scan.
func (s *Scan) nameMapping() (schema.NameMapping, error) {
	s.nmOnce.Do(func() { s.nm, s.nmErr = s.Metadata.NameMapping() })
	return s.nm, s.nmErr
}

type nameMappingCache struct {
	nmOnce sync.Once
	nm     schema.NameMapping
	nmErr  error
}

// Tasks plans the scan opts selects and yields one task per live data file
// ([Scan.Task], in the read schema of the scan), in manifest-list order
// then entry order, the order of [Table.Plan]. It streams: the delete
// manifests are read first (they decide which deletes apply to a data
// file), then the data manifests, opts.ManifestWorkers (default 8) at a
// time, each manifest's tasks yielded once it is decoded, so the memory
// held is the delete files plus a few manifests' entries, whatever the
// table's size. The first error ends the sequence; stopping early stops
// reading manifests.
func (t *Table) Tasks(ctx context.Context, opts ScanOptions) iter.Seq2[table.Task, error] {
	return func(yield func(table.Task, error) bool) {
		s, files, err := t.streamFiles(ctx, opts)
		if err != nil {
			yield(table.Task{}, err)
			return
		}
		for f, err := range files {
			if err != nil {
				yield(table.Task{}, err)
				return
			}
			task, err := s.Task(f, nil)
			if !yield(task, err) || err != nil {
				return
			}
		}
	}
}

// streamFiles selects the snapshot opts selects, reads its manifest list
// and its delete manifests, and returns the scan (its DeleteFiles set, no
// DataFiles) and a sequence of its live data files in the order of
// [Table.Plan], read from the data manifests opts.ManifestWorkers at a
// time as the sequence is drained. The sequence's first error ends it
// (a manifest listing a file of the other content is [ErrCorruptManifest],
// as for [Table.Plan]);
// stopping early stops reading manifests. A file yielded stays valid after
// the sequence moves on.
func (t *Table) streamFiles(ctx context.Context, opts ScanOptions) (*Scan, iter.Seq2[*DataFile, error], error) {
	s, manifests, res, err := t.start(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if s.Snapshot == nil {
		return s, func(func(*DataFile, error) bool) {}, nil
	}
	files, err := t.streamManifests(ctx, s, res, manifests, workers(opts))
	return s, files, err
}

// streamManifests is streamFiles from the manifests of the snapshot of s
// on: it reads the delete manifests among them (setting s.DeleteFiles)
// and returns the sequence of the data manifests' live files, read w at a
// time.
func (t *Table) streamManifests(ctx context.Context, s *Scan, res *resolver, manifests []ManifestFile, w int) (iter.Seq2[*DataFile, error], error) {
	var data []ManifestFile
	var deletes []ManifestFile
	for _, mf := range manifests {
		if mf.Content == 1 {
			deletes = append(deletes, mf)
		} else {
			data = append(data, mf)
		}
	}
	files := make([][]DataFile, len(deletes))
	if err := parallel.ForEach(ctx, len(deletes), w, func(ctx context.Context, i int) error {
		var err error
		files[i], err = t.readManifest(ctx, res, deletes[i])
		return err
	}); err != nil {
		return nil, err
	}
	for _, fs := range files {
		s.DeleteFiles = append(s.DeleteFiles, fs...)
	}
	return func(yield func(*DataFile, error) bool) {
		window := make([][]DataFile, w)
		for start := 0; start < len(data); start += w {
			n := min(w, len(data)-start)
			if err := parallel.ForEach(ctx, n, w, func(ctx context.Context, i int) error {
				var err error
				window[i], err = t.readManifest(ctx, res, data[start+i])
				return err
			}); err != nil {
				yield(nil, err)
				return
			}
			for i := 0; i < n; i++ {
				for j := range window[i] {
					if !yield(&window[i][j], nil) {
						return
					}
				}
				window[i] = nil
			}
		}
	}, nil
}

// PlanTasks returns every task of [Table.Tasks].
func (t *Table) PlanTasks(ctx context.Context, opts ScanOptions) ([]table.Task, error) {
	var out []table.Task
	for task, err := range t.Tasks(ctx, opts) {
		if err != nil {
			return nil, err
		}
		out = append(out, task)
	}
	return out, nil
}
