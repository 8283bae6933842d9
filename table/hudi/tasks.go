package hudi

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// Task returns the task that reads the base file f of the scan in the
// scan's schema: the file's columns are located by name through the schema
// of the commit that wrote it ([Scan.WriterSchema]), with Hudi's promotion
// rules.
func (s *Scan) Task(ctx context.Context, f *BaseFile) (table.Task, error) {
	ws, err := s.WriterSchema(ctx, f)
	if err != nil {
		return table.Task{}, fmt.Errorf("%s: %w", f.Path, err)
	}
	return table.Task{
		Path: f.Path, Format: f.Format, SizeBytes: f.SizeBytes, RecordCount: f.RecordCount,
		FileSchema: ws, FileSchemaID: -1, ReadSchema: s.Schema, Rules: "hudi",
	}, nil
}

// ErrUnsupportedMerge is matched by the error for a merge-on-read table
// whose record merging this package does not plan: a custom merge mode or
// payload class, or an ordering field the table schema lacks.
var ErrUnsupportedMerge = lakecat.NewSentinel(lakecat.ErrUnsupported, "hudi: unsupported record merge")

// LogFormat is the Task.Format of a file slice of log files only.
const LogFormat = "HUDI-LOG"

// MergeMode returns how records of one key are merged ([table.HudiSlice]
// MergeMode), from hoodie.properties (Hudi docs, "Record Merging"):
// hoodie.record.merge.mode EVENT_TIME_ORDERING is "event-time" and
// COMMIT_TIME_ORDERING "commit-time"; without it (table versions before 8)
// the payload class decides: DefaultHoodieRecordPayload and
// EventTimeAvroPayload are "event-time", OverwriteWithLatestAvroPayload (the
// 0.x default) "overwrite-latest". A CUSTOM mode (unless its payload class
// is one of the event-time ones) or another payload class returns an error
// matching [ErrUnsupportedMerge] naming it.
func (t *Table) MergeMode() (string, error) {
	switch m := t.Properties["hoodie.record.merge.mode"]; m {
	case "EVENT_TIME_ORDERING":
		return "event-time", nil
	case "COMMIT_TIME_ORDERING":
		return "commit-time", nil
	case "":
	default:
		if p := t.payloadClass(); m != "CUSTOM" || !isEventTimePayload(p) {
			return "", fmt.Errorf("%w: hoodie.record.merge.mode %s (payload class %q)", ErrUnsupportedMerge, m, p)
		}
		return "event-time", nil
	}
	p := t.payloadClass()
	switch short := p[strings.LastIndexByte(p, '.')+1:]; {
	case short == "" || short == "OverwriteWithLatestAvroPayload":
		return "overwrite-latest", nil
	case isEventTimePayload(p):
		return "event-time", nil
	default:
		return "", fmt.Errorf("%w: payload class %s", ErrUnsupportedMerge, p)
	}
}

func (t *Table) payloadClass() string {
	if p := t.Properties["hoodie.compaction.payload.class"]; p != "" {
		return p
	}
	return t.Properties["hoodie.datasource.write.payload.class"]
}

func isEventTimePayload(p string) bool {
	short := p[strings.LastIndexByte(p, '.')+1:]
	return short == "DefaultHoodieRecordPayload" || short == "EventTimeAvroPayload"
}

// OrderingFields returns the names of the ordering fields:
// hoodie.table.ordering.fields (table version 8 and later) or
// hoodie.table.precombine.field, split at commas; nil when there are none.
func (t *Table) OrderingFields() []string {
	v := t.Properties["hoodie.table.ordering.fields"]
	if v == "" {
		v = t.Properties["hoodie.table.precombine.field"]
	}
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// SliceTask returns the task that reads the file slice fs in the scan's
// schema: the task of its base file ([Scan.Task]) and, when it has log
// files, their merge ([table.HudiSlice]): the completed instants from the
// base file's on (the slice's blocks can only be theirs) with the schema
// each wrote with ([Scan.WriterSchema]), the ordering fields resolved in the
// table schema, the merge mode. A slice without a base file reads its logs
// alone (Task.Path is its first log file, Format [LogFormat]). Errors:
// [ErrUnsupportedMerge], and those of [Scan.WriterSchema].
func (s *Scan) SliceTask(ctx context.Context, fs *FileSlice) (table.Task, error) {
	var task table.Task
	if fs.Base != nil {
		var err error
		if task, err = s.Task(ctx, fs.Base); err != nil || len(fs.Logs) == 0 {
			return task, err
		}
	} else {
		if len(fs.Logs) == 0 {
			return table.Task{}, fmt.Errorf("hudi: file group %s has neither a base file nor log files", fs.FileID)
		}
		task = table.Task{Path: fs.Logs[0].Path, Format: LogFormat, SizeBytes: -1, RecordCount: -1, FileSchemaID: -1, ReadSchema: s.Schema, Rules: "hudi"}
	}
	mode, err := s.Table.MergeMode()
	if err != nil {
		return table.Task{}, fmt.Errorf("%s: %w", task.Path, err)
	}
	h := &table.HudiSlice{NoBase: fs.Base == nil, ArchivedBefore: s.earliest, AsOf: s.asOf, MergeMode: mode}
	for _, l := range fs.Logs {
		h.LogFiles = append(h.LogFiles, table.HudiLogFile{Path: l.Path, SizeBytes: l.SizeBytes})
	}
	maxID := 0
	seen := map[*schema.Schema]int{}
	note := func(sc *schema.Schema) {
		if sc == nil {
			return
		}
		schema.Walk(sc.Fields, func(_ []string, f *schema.Field) bool {
			maxID = max(maxID, f.ID)
			return true
		})
	}
	note(s.Schema)
	note(task.FileSchema)
	for _, in := range s.instants {
		if fs.Base != nil && in.Time < fs.Base.InstantTime {
			continue
		}
		ws, err := s.WriterSchema(ctx, &BaseFile{InstantTime: in.Time})
		if err != nil {
			return table.Task{}, fmt.Errorf("%s: instant %s: %w", task.Path, in.Time, err)
		}
		i, ok := seen[ws]
		if !ok {
			i = len(h.Schemas)
			seen[ws] = i
			h.Schemas = append(h.Schemas, ws)
			note(ws)
		}
		h.Instants = append(h.Instants, table.HudiInstant{Time: in.Time, Schema: i})
	}
	if s.History != nil {
		for _, sc := range s.History.Schemas {
			note(sc)
		}
	}
	h.KeyFieldID = maxID + 1
	if names := s.Table.OrderingFields(); len(names) > 0 {
		var fields []*schema.Field
		for _, n := range names {
			f := s.Schema.FindByName(n, false)
			if f == nil {
				f = s.Schema.FindByName(n, true)
			}
			if f == nil || schema.Children(f.Type) != nil {
				return table.Task{}, fmt.Errorf("%s: %w: ordering field %q is not a top-level primitive column of the table schema", task.Path, ErrUnsupportedMerge, n)
			}
			fields = append(fields, f)
		}
		h.Ordering = schema.New(0, fields...)
	}
	if f := s.Schema.FindByName("_hoodie_is_deleted", false); f != nil && f.Type == schema.Boolean {
		h.IsDeletedFieldID = f.ID
	}
	task.Hudi = h
	return task, nil
}
