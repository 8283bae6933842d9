package orc

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestUnionAsStruct: apache/orc's testUnionAndTimestamp file, whose column
// "union" is uniontype<int,string>, is read as struct<tag: tinyint, field0:
// int, field1: string> (the union used to be refused): the first rows,
// exactly, with a null union, unions whose tagged variant is null, and the
// Arrow types (int8 tag; the file's timestamp column, a wall clock, has no
// zone). TestGold compares all 5077 rows with the Java tool's output.
func TestUnionAsStruct(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f := openFile(t, filepath.Join(examplesDir(t), "TestOrcFile.testUnionAndTimestamp.orc"))
	var fields []string
	for _, fd := range f.Schema().Fields {
		fields = append(fields, fd.Name+" "+fd.Type.String())
	}
	if got, want := strings.Join(fields, "; "), "time timestamp_ns; union struct<tag: tinyint, field0: int, field1: string>; decimal decimal(38, 18)"; got != want {
		t.Errorf("schema:\n%s\nwant\n%s", got, want)
	}
	br, err := f.NewBatchReader(nil, BatchOptions{BatchRows: 6, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	rec, err := br.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if got, want := rec.Schema().String(), `schema:
  fields: 3
    - time: type=timestamp[ns], nullable
    - union: type=struct<tag: int8 nullable, field0: int32 nullable, field1: utf8 nullable>, nullable
    - decimal: type=decimal(38, 18), nullable`; got != want {
		t.Errorf("Arrow schema:\n%s\nwant\n%s", got, want)
	}
	b, err := rec.Column(1).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"field0":42,"field1":null,"tag":0}
,{"field0":null,"field1":"hello","tag":1}
,null
,{"field0":null,"field1":null,"tag":0}
,{"field0":null,"field1":null,"tag":1}
,{"field0":200000,"field1":null,"tag":0}
]`
	if string(b) != want {
		t.Errorf("union rows:\n%s\nwant\n%s", b, want)
	}
}
