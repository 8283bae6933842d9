package lakecat_test

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/hudilog"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/hudi"
)

// TestHudiMergeSentinels pins the classes of the Hudi merge-on-read
// sentinels (the log block reader, the merge and its planning).
func TestHudiMergeSentinels(t *testing.T) {
	for _, c := range []struct {
		err   error
		class error
		text  string
	}{
		{hudilog.ErrCorrupt, lakecat.ErrCorrupt, "hudilog: corrupt log file"},
		{&hudilog.CorruptError{File: "f", Offset: 6, Section: "block", Err: errors.New("short")}, lakecat.ErrCorrupt, "hudilog: corrupt block in f at offset 6: short"},
		{hudilog.ErrUnsupported, lakecat.ErrUnsupported, "hudilog: unsupported log block"},
		{reader.ErrCorruptLog, lakecat.ErrCorrupt, "reader: corrupt merge-on-read log"},
		{reader.ErrUnsupportedLog, lakecat.ErrUnsupported, "reader: unsupported merge-on-read log block"},
		{reader.ErrMergeBudget, lakecat.ErrUnsupported, "reader: merge-on-read log records exceed the memory budget"},
		{hudi.ErrUnsupportedMerge, lakecat.ErrUnsupported, "hudi: unsupported record merge"},
	} {
		if got := lakecat.ClassOf(c.err); got != c.class {
			t.Errorf("%q: class %v, want %v", c.err, got, c.class)
		}
		if c.err.Error() != c.text {
			t.Errorf("text %q, want %q", c.err, c.text)
		}
	}
}
