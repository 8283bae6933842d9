package reader_test

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// TestPaimonCppMerged reads the paimon-cpp primary-key tables merged (the
// default), with the rows their READMEs state, sorted as JSON lines:
// pk_table_with_mor ("Recall with schema-4": five schemas, keys k0/k1 and
// sequence fields s0/s1 renamed into each other, s1 string→binary,
// v0 double→int, v1 boolean→string; sequence.field = s0,s1 decides that
// banana/you and car/later beat the later abandon/new_you and car/again),
// pk_table_with_alter_table ("Recall with schema-1": deletion-vector mode,
// Tony and Lily deleted, Alice and Alex updated, the key key2 renamed
// key_2) and pk_table_nested_type (1000 and 1002 deleted, 1003 retracted by
// -U, 1001 updated; the README's messages show 1005-1007 with 1004's
// nested values, the files hold 5, 6 and 7).
func TestPaimonCppMerged(t *testing.T) {
	mor := rowsOf(`
{"k1":0,"k0":0,"p0":0,"p1":0,"s1":"apple","s0":"c2Vl","v0":110,"v1":"false","v2":null}
{"k1":0,"k0":0,"p0":1,"p1":0,"s1":"elephant","s0":"aGk=","v0":120,"v1":"false","v2":null}
{"k1":0,"k0":1,"p0":0,"p1":0,"s1":"banana","s0":"eW91","v0":11,"v1":"false","v2":null}
{"k1":0,"k0":1,"p0":0,"p1":1,"s1":"zoo","s0":"eW91","v0":130,"v1":"false","v2":null}
{"k1":1,"k0":0,"p0":0,"p1":0,"s1":"car","s0":"bGF0ZXI=","v0":12,"v1":"true","v2":null}
{"k1":1,"k0":1,"p0":0,"p1":0,"s1":"driver","s0":"IQ==","v0":13,"v1":"false","v2":null}
{"k1":1,"k0":2,"p0":0,"p1":0,"s1":"driver","s0":"IQ==","v0":13,"v1":"false","v2":null}
{"k1":100,"k0":200,"p0":0,"p1":0,"s1":"max","s0":"bnVtYmVy","v0":140,"v1":"false","v2":null}`)
	alter := rowsOf(`
{"key1":1,"k":"Alex","key_2":52,"c":514,"d":518,"a":516,"key0":1,"e":519}
{"key1":1,"k":"Alice","key_2":12,"c":94,"d":null,"a":96,"key0":0,"e":null}
{"key1":1,"k":"Bob","key_2":22,"c":24,"d":null,"a":26,"key0":1,"e":null}
{"key1":1,"k":"David","key_2":62,"c":64,"d":null,"a":66,"key0":1,"e":null}
{"key1":1,"k":"Emily","key_2":32,"c":34,"d":null,"a":36,"key0":1,"e":null}
{"key1":1,"k":"Paul","key_2":502,"c":504,"d":508,"a":506,"key0":0,"e":509}
{"key1":1,"k":"Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference.","key_2":2,"c":4,"d":null,"a":6,"key0":0,"e":null}
{"key1":1,"k":"Whether I shall turn out to be the hero of my own life.","key_2":72,"c":74,"d":null,"a":76,"key0":1,"e":null}`)
	nested := rowsOf(`
{"shopId":1001,"dt":"2025-04-14","hr":10,"col0":10,"col1":{"f0":"str-1","f1":100,"f2":[1,null,2]},"col2":[{"key":1,"value":1},{"key":101,"value":101}]}
{"shopId":1004,"dt":"2025-04-14","hr":10,"col0":40,"col1":{"f0":"str-4","f1":400,"f2":[4,null,5]},"col2":[{"key":4,"value":4},{"key":104,"value":104}]}
{"shopId":1005,"dt":"2025-04-14","hr":10,"col0":50,"col1":{"f0":"str-5","f1":500,"f2":[5,null,6]},"col2":[{"key":5,"value":5},{"key":105,"value":105}]}
{"shopId":1006,"dt":"2025-04-14","hr":10,"col0":60,"col1":{"f0":"str-6","f1":600,"f2":[6,null,7]},"col2":[{"key":6,"value":6},{"key":106,"value":106}]}
{"shopId":1007,"dt":"2025-04-14","hr":10,"col0":70,"col1":{"f0":"str-7","f1":700,"f2":[7,null,8]},"col2":[{"key":7,"value":7},{"key":107,"value":107}]}`)
	for _, c := range []struct {
		table string
		want  []string
	}{
		{"orc/pk_table_with_mor", mor},
		{"parquet/pk_table_with_alter_table", alter},
		{"orc/pk_table_with_alter_table", alter},
		{"parquet/pk_table_nested_type", nested},
		{"orc/pk_table_nested_type", nested},
	} {
		t.Run(c.table, func(t *testing.T) {
			got := scanTableRows(t, paimonCpp(t, c.table), reader.TableOptions{BatchRows: 3})
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestPaimonCppMergedTypes checks the Arrow types of a merged read: the
// types of the current schema whatever the files hold.
func TestPaimonCppMergedTypes(t *testing.T) {
	mem := testutil.CheckedAllocator(t)
	tbl, err := reader.OpenTable(context.Background(), paimonCpp(t, "orc/pk_table_with_mor"), reader.TableOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	want := []arrow.DataType{arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32,
		arrow.BinaryTypes.String, arrow.BinaryTypes.Binary, arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32}
	rows := 0
	for rr.Next() {
		rec := rr.RecordBatch()
		rows += int(rec.NumRows())
		if int(rec.NumCols()) != len(want) {
			t.Fatalf("schema %s", rec.Schema())
		}
		for i, w := range want {
			if !arrow.TypeEqual(rec.Column(i).DataType(), w) {
				t.Errorf("column %s: %s, want %s", rec.Schema().Field(i).Name, rec.Column(i).DataType(), w)
			}
		}
	}
	if err := rr.Err(); err != nil || rows != 8 {
		t.Fatalf("%d rows, %v", rows, err)
	}
}

// TestPaimonJavaDeletionVectorTables reads the primary-key tables Paimon
// Java wrote with deletion vectors (pypaimon's pk_global_index_golden):
// every table reads, and the filters of pypaimon's test give its rows.
func TestPaimonJavaDeletionVectorTables(t *testing.T) {
	root := testutil.RealDir(t, "paimon", "pk_global_index_golden", "default.db")
	for _, c := range []struct {
		table string
		where expr.Expr
		want  string
	}{
		{"test_pk_global_index_golden", nil, `{"id":1,"name":"name-1","category":"odd"}
{"id":2,"name":"name-2","category":"even"}
{"id":3,"name":"name-3","category":"odd"}
{"id":4,"name":"name-4","category":"even"}
{"id":5,"name":"name-5","category":"odd"}
{"id":6,"name":"name-6","category":"even"}`},
		{"test_pk_global_index_golden", expr.Equal("name", "name-4"), `{"id":4,"name":"name-4","category":"even"}`},
		{"test_pk_global_index_golden", expr.Equal("category", "odd"), `{"id":1,"name":"name-1","category":"odd"}
{"id":3,"name":"name-3","category":"odd"}
{"id":5,"name":"name-5","category":"odd"}`},
		{"test_pk_full_text_golden", nil, `{"id":1,"content":"Apache Paimon supports primary key tables"}
{"id":2,"content":"Native full text search"}
{"id":3,"content":"Paimon global indexes"}
{"id":4,"content":"Unrelated document"}`},
		{"test_pk_vector_golden", nil, `{"id":1,"embedding":[1,0,0,0]}
{"id":2,"embedding":[0.9,0.1,0,0]}
{"id":3,"embedding":[0,1,0,0]}
{"id":4,"embedding":[0,0,1,0]}`},
	} {
		got := scanTableRows(t, root+"/"+c.table, reader.TableOptions{Filter: c.where})
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s where %v:\n%s\nwant:\n%s", c.table, c.where, strings.Join(got, "\n"), c.want)
		}
	}
}

// TestPaimonMergeTasksJSON: the merged read's tasks, encoded as JSON and
// decoded (as on another machine), read the same merged rows.
func TestPaimonMergeTasksJSON(t *testing.T) {
	dir := ordersTable(t)
	tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.Tasks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	merges := 0
	var decoded []table.Task
	for _, task := range tasks {
		if task.Merge != nil {
			merges++
		}
		b, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		var back table.Task
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		decoded = append(decoded, back)
	}
	if len(tasks) != 12 || merges != 2 {
		t.Errorf("%d tasks, %d merges; want 12 and 2", len(tasks), merges)
	}
	mem := testutil.CheckedAllocator(t)
	rr, err := reader.ScanTasks(context.Background(), storage.OSFS{}, decoded, reader.ScanOptions{Workers: 2}, reader.TaskOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	lines := strings.Split(strings.TrimSpace(testutil.ReaderJSON(t, rr)), "\n")
	sort.Strings(lines)
	if strings.Join(lines, "\n") != strings.Join(rowsOf(ordersMerged), "\n") {
		t.Errorf("rows:\n%s", strings.Join(lines, "\n"))
	}
}
