package reader_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon"
)

// ordersTable is the generated Paimon table testdata/paimon_orders.
func ordersTable(t *testing.T) string {
	return filepath.Join(testutil.RepoRoot(t), "testdata", "paimon_orders")
}

// The rows of testdata/paimon_orders read with the latest schema (schema-2)
// and Raw: the system columns, then order_id, customer_name (order_name
// before schema-1: the rename follows id 1), order_user_id, order_shop_id,
// quantity (id 4, added in schema-1 as INT: null in schema-0 files, widened
// to BIGINT in schema-2) and note (id 5, added in schema-2). Sorted as
// strings.
const ordersRaw = `
{"_KEY_order_id":1,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"order_id":1,"customer_name":"alice","order_user_id":100,"order_shop_id":10,"quantity":null,"note":null}
{"_KEY_order_id":10,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"order_id":10,"customer_name":"judy","order_user_id":105,"order_shop_id":11,"quantity":3000000000,"note":"gift"}
{"_KEY_order_id":11,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"order_id":11,"customer_name":null,"order_user_id":100,"order_shop_id":12,"quantity":1,"note":null}
{"_KEY_order_id":12,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"order_id":12,"customer_name":"mallory","order_user_id":106,"order_shop_id":10,"quantity":null,"note":"rush"}
{"_KEY_order_id":2,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"order_id":2,"customer_name":"bob","order_user_id":101,"order_shop_id":11,"quantity":null,"note":null}
{"_KEY_order_id":3,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"order_id":3,"customer_name":"carol","order_user_id":100,"order_shop_id":null,"quantity":null,"note":null}
{"_KEY_order_id":3,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":2,"order_id":3,"customer_name":"carol","order_user_id":100,"order_shop_id":11,"quantity":4,"note":"moved"}
{"_KEY_order_id":4,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"order_id":4,"customer_name":"dave","order_user_id":null,"order_shop_id":12,"quantity":null,"note":null}
{"_KEY_order_id":4,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":3,"order_id":4,"customer_name":"dave","order_user_id":null,"order_shop_id":12,"quantity":null,"note":null}
{"_KEY_order_id":5,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"order_id":5,"customer_name":"erin","order_user_id":102,"order_shop_id":10,"quantity":null,"note":null}
{"_KEY_order_id":6,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"order_id":6,"customer_name":"frank","order_user_id":103,"order_shop_id":11,"quantity":2,"note":null}
{"_KEY_order_id":7,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"order_id":7,"customer_name":"grace","order_user_id":100,"order_shop_id":12,"quantity":null,"note":null}
{"_KEY_order_id":8,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"order_id":8,"customer_name":"heidi","order_user_id":104,"order_shop_id":null,"quantity":5,"note":null}
{"_KEY_order_id":9,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"order_id":9,"customer_name":"ivan","order_user_id":101,"order_shop_id":10,"quantity":2147483647,"note":null}
`

// ordersMerged are the rows of testdata/paimon_orders read merged (the
// default): order 3 as its +U record left it, order 4 deleted by its -D.
const ordersMerged = `
{"order_id":1,"customer_name":"alice","order_user_id":100,"order_shop_id":10,"quantity":null,"note":null}
{"order_id":10,"customer_name":"judy","order_user_id":105,"order_shop_id":11,"quantity":3000000000,"note":"gift"}
{"order_id":11,"customer_name":null,"order_user_id":100,"order_shop_id":12,"quantity":1,"note":null}
{"order_id":12,"customer_name":"mallory","order_user_id":106,"order_shop_id":10,"quantity":null,"note":"rush"}
{"order_id":2,"customer_name":"bob","order_user_id":101,"order_shop_id":11,"quantity":null,"note":null}
{"order_id":3,"customer_name":"carol","order_user_id":100,"order_shop_id":11,"quantity":4,"note":"moved"}
{"order_id":5,"customer_name":"erin","order_user_id":102,"order_shop_id":10,"quantity":null,"note":null}
{"order_id":6,"customer_name":"frank","order_user_id":103,"order_shop_id":11,"quantity":2,"note":null}
{"order_id":7,"customer_name":"grace","order_user_id":100,"order_shop_id":12,"quantity":null,"note":null}
{"order_id":8,"customer_name":"heidi","order_user_id":104,"order_shop_id":null,"quantity":5,"note":null}
{"order_id":9,"customer_name":"ivan","order_user_id":101,"order_shop_id":10,"quantity":2147483647,"note":null}
`

// TestPaimonOrdersGenerated reads the generated table testdata/paimon_orders
// back: schema-0 is the Paimon format description's example, the table
// reads merged by default (11 rows), and with Raw the 14 stored rows come
// out in the latest schema, each of the 14 data files resolved through the
// schema-N of its manifest schemaId.
func TestPaimonOrdersGenerated(t *testing.T) {
	dir := ordersTable(t)
	b, err := os.ReadFile(filepath.Join(dir, "schema", "schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	s0, err := schema.ParsePaimonSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	want0 := schema.New(0,
		&schema.Field{ID: 0, Name: "order_id", Type: schema.Long, Required: true},
		&schema.Field{ID: 1, Name: "order_name", Type: schema.String},
		&schema.Field{ID: 2, Name: "order_user_id", Type: schema.Long},
		&schema.Field{ID: 3, Name: "order_shop_id", Type: schema.Long},
	)
	if !s0.Schema().Equal(want0) || s0.Version != 3 || s0.HighestFieldID != 3 || s0.TimeMillis != 1720496663041 ||
		!reflect.DeepEqual(s0.PrimaryKeys, []string{"order_id"}) || len(s0.PartitionKeys) != 0 || s0.Options["bucket"] != "5" {
		t.Errorf("schema-0 is not the format description's example: %+v", s0)
	}

	if got := scanTableRows(t, dir, reader.TableOptions{}); strings.Join(got, "\n") != strings.Join(rowsOf(ordersMerged), "\n") {
		t.Errorf("merged rows:\n%s", strings.Join(got, "\n"))
	}

	tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{FormatOptions: paimon.Options{Raw: true}})
	if err != nil {
		t.Fatal(err)
	}
	if tbl.CurrentSchemaID != 2 || len(tbl.Schemas) != 3 {
		t.Errorf("current schema %d of %d", tbl.CurrentSchemaID, len(tbl.Schemas))
	}
	var files []string
	for _, f := range tbl.Files {
		files = append(files, fmt.Sprintf("%s:%d:%d", strings.TrimPrefix(filepath.ToSlash(f.Path), filepath.ToSlash(dir)+"/"), f.SchemaID, f.RecordCount))
	}
	wantFiles := "bucket-0/data-00000000-0000-0000-0000-000000000001-0.parquet:0:1 " +
		"bucket-1/data-00000000-0000-0000-0000-000000000002-0.parquet:0:1 " +
		"bucket-2/data-00000000-0000-0000-0000-000000000003-0.parquet:0:1 " +
		"bucket-3/data-00000000-0000-0000-0000-000000000004-0.parquet:0:1 " +
		"bucket-4/data-00000000-0000-0000-0000-000000000005-0.parquet:0:1 " +
		"bucket-1/data-00000000-0000-0000-0000-000000000006-0.parquet:1:1 " +
		"bucket-2/data-00000000-0000-0000-0000-000000000007-0.parquet:1:1 " +
		"bucket-3/data-00000000-0000-0000-0000-000000000008-0.parquet:1:1 " +
		"bucket-4/data-00000000-0000-0000-0000-000000000009-0.parquet:1:1 " +
		"bucket-0/data-00000000-0000-0000-0000-000000000010-0.parquet:2:1 " +
		"bucket-1/data-00000000-0000-0000-0000-000000000011-0.parquet:2:1 " +
		"bucket-2/data-00000000-0000-0000-0000-000000000012-0.parquet:2:1 " +
		"bucket-3/data-00000000-0000-0000-0000-000000000013-0.parquet:2:1 " +
		"bucket-4/data-00000000-0000-0000-0000-000000000014-0.parquet:2:1"
	if got := strings.Join(files, " "); got != wantFiles {
		t.Errorf("files:\n%s\nwant\n%s", got, wantFiles)
	}
	got := scanTableRows(t, dir, reader.TableOptions{FormatOptions: paimon.Options{Raw: true}})
	if want := rowsOf(ordersRaw); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// --schema-id 0: the example's columns; order_name is id 1 whatever a
	// later schema calls it. Merged, order 4 is gone; selecting only
	// order_name still merges by the key.
	zero := int64(0)
	got = scanTableRows(t, dir, reader.TableOptions{Columns: []string{"order_id", "order_name"}, FormatOptions: paimon.Options{SchemaID: &zero}})
	want := rowsOf(`
{"order_id":1,"order_name":"alice"}
{"order_id":10,"order_name":"judy"}
{"order_id":11,"order_name":null}
{"order_id":12,"order_name":"mallory"}
{"order_id":2,"order_name":"bob"}
{"order_id":3,"order_name":"carol"}
{"order_id":5,"order_name":"erin"}
{"order_id":6,"order_name":"frank"}
{"order_id":7,"order_name":"grace"}
{"order_id":8,"order_name":"heidi"}
{"order_id":9,"order_name":"ivan"}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("schema 0 rows:\n%s", strings.Join(got, "\n"))
	}
	got = scanTableRows(t, dir, reader.TableOptions{Columns: []string{"note"}})
	if want := "{\"note\":\"gift\"}\n{\"note\":\"moved\"}\n{\"note\":\"rush\"}\n" + strings.Repeat("{\"note\":null}\n", 8); strings.Join(got, "\n")+"\n" != want {
		t.Errorf("note only:\n%s", strings.Join(got, "\n"))
	}
}
