// Command genorders writes the generated Paimon table testdata/paimon_orders
// into the current folder (run it with `go generate ./testdata/paimon_orders`).
//
// schema-0 is the schema file example of the Paimon format description,
// byte for byte: order_id BIGINT NOT NULL (primary key), order_name STRING,
// order_user_id BIGINT, order_shop_id BIGINT, bucket = 5. Two later schemas
// change it: schema-1 renames order_name → customer_name and adds quantity
// INT (id 4); schema-2 widens quantity INT → BIGINT and adds note STRING
// (id 5). One commit writes Parquet data files (with field ids, and the
// system columns of a primary-key table) under each schema, one file per
// bucket it touches. A fourth commit, under schema-2, updates order 3 (+U:
// carol moves to shop 11, quantity 4, note "moved") and deletes order 4
// (-D), so the merged read differs from the stored rows. The bucket is
// order_id mod 5 (a reader never recomputes it; Paimon's own writer hashes
// the key). Each file records its min and max key.
//
// The output is deterministic: running it twice writes the same bytes.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"

	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

// schema0 is the Paimon format description's schema file example.
const schema0 = `{
  "version" : 3,
  "id" : 0,
  "fields" : [ {
    "id" : 0,
    "name" : "order_id",
    "type" : "BIGINT NOT NULL"
  }, {
    "id" : 1,
    "name" : "order_name",
    "type" : "STRING"
  }, {
    "id" : 2,
    "name" : "order_user_id",
    "type" : "BIGINT"
  }, {
    "id" : 3,
    "name" : "order_shop_id",
    "type" : "BIGINT"
  } ],
  "highestFieldId" : 3,
  "partitionKeys" : [ ],
  "primaryKeys" : [ "order_id" ],
  "options" : {
    "bucket" : "5"
  },
  "comment" : "",
  "timeMillis" : 1720496663041
}`

const schema1 = `{
  "version" : 3,
  "id" : 1,
  "fields" : [ {
    "id" : 0,
    "name" : "order_id",
    "type" : "BIGINT NOT NULL"
  }, {
    "id" : 1,
    "name" : "customer_name",
    "type" : "STRING"
  }, {
    "id" : 2,
    "name" : "order_user_id",
    "type" : "BIGINT"
  }, {
    "id" : 3,
    "name" : "order_shop_id",
    "type" : "BIGINT"
  }, {
    "id" : 4,
    "name" : "quantity",
    "type" : "INT"
  } ],
  "highestFieldId" : 4,
  "partitionKeys" : [ ],
  "primaryKeys" : [ "order_id" ],
  "options" : {
    "bucket" : "5"
  },
  "comment" : "",
  "timeMillis" : 1720496700000
}`

const schema2 = `{
  "version" : 3,
  "id" : 2,
  "fields" : [ {
    "id" : 0,
    "name" : "order_id",
    "type" : "BIGINT NOT NULL"
  }, {
    "id" : 1,
    "name" : "customer_name",
    "type" : "STRING"
  }, {
    "id" : 2,
    "name" : "order_user_id",
    "type" : "BIGINT"
  }, {
    "id" : 3,
    "name" : "order_shop_id",
    "type" : "BIGINT"
  }, {
    "id" : 4,
    "name" : "quantity",
    "type" : "BIGINT"
  }, {
    "id" : 5,
    "name" : "note",
    "type" : "STRING"
  } ],
  "highestFieldId" : 5,
  "partitionKeys" : [ ],
  "primaryKeys" : [ "order_id" ],
  "options" : {
    "bucket" : "5"
  },
  "comment" : "",
  "timeMillis" : 1720496800000
}`

// The system columns of a primary-key table's data files come first, with
// Paimon's field ids: _KEY_<pk> = 1073741823 + the key's id,
// _SEQUENCE_NUMBER = 2147483646, _VALUE_KIND = 2147483645 (0: insert).

type row0 struct {
	Key         int64   `parquet:"_KEY_order_id,id(1073741823)"`
	Seq         int64   `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind        int8    `parquet:"_VALUE_KIND,id(2147483645)"`
	OrderID     int64   `parquet:"order_id,id(0)"`
	OrderName   *string `parquet:"order_name,id(1),optional"`
	OrderUserID *int64  `parquet:"order_user_id,id(2),optional"`
	OrderShopID *int64  `parquet:"order_shop_id,id(3),optional"`
}

type row1 struct {
	Key          int64   `parquet:"_KEY_order_id,id(1073741823)"`
	Seq          int64   `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind         int8    `parquet:"_VALUE_KIND,id(2147483645)"`
	OrderID      int64   `parquet:"order_id,id(0)"`
	CustomerName *string `parquet:"customer_name,id(1),optional"`
	OrderUserID  *int64  `parquet:"order_user_id,id(2),optional"`
	OrderShopID  *int64  `parquet:"order_shop_id,id(3),optional"`
	Quantity     *int32  `parquet:"quantity,id(4),optional"`
}

type row2 struct {
	Key          int64   `parquet:"_KEY_order_id,id(1073741823)"`
	Seq          int64   `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind         int8    `parquet:"_VALUE_KIND,id(2147483645)"`
	OrderID      int64   `parquet:"order_id,id(0)"`
	CustomerName *string `parquet:"customer_name,id(1),optional"`
	OrderUserID  *int64  `parquet:"order_user_id,id(2),optional"`
	OrderShopID  *int64  `parquet:"order_shop_id,id(3),optional"`
	Quantity     *int64  `parquet:"quantity,id(4),optional"`
	Note         *string `parquet:"note,id(5),optional"`
}

func p[T any](v T) *T { return &v }

const buckets = 5

var (
	w        = &paimonwrite.Writer{Dir: ".", TimeMillis: 1720496900000}
	seq      = map[int]int64{} // next sequence number per bucket
	fileSeqN int
)

// commit writes rows (of one schema) into one Parquet file per bucket and
// commits them.
func commit[T any](schemaID int64, rows []T, id func(T) int64, setSys func(*T, int64), kind func(T) int8) {
	byBucket := map[int][]T{}
	for _, r := range rows {
		b := int(id(r) % buckets)
		byBucket[b] = append(byBucket[b], r)
	}
	var bs []int
	for b := range byBucket {
		bs = append(bs, b)
	}
	sort.Ints(bs)
	var files []paimonwrite.DataFile
	for _, b := range bs {
		rs := byBucket[b]
		first := seq[b]
		for i := range rs {
			setSys(&rs[i], seq[b])
			seq[b]++
		}
		fileSeqN++
		name := fmt.Sprintf("data-00000000-0000-0000-0000-%012d-0.parquet", fileSeqN)
		path, err := w.DataFilePath(b, name)
		if err != nil {
			log.Fatal(err)
		}
		if err := parquet.WriteFile(path, rs); err != nil {
			log.Fatal(err)
		}
		var retracts int64
		for _, r := range rs {
			if k := kind(r); k == 1 || k == 3 {
				retracts++
			}
		}
		files = append(files, paimonwrite.DataFile{Name: name, Bucket: b, TotalBuckets: buckets, SchemaID: schemaID,
			RowCount: int64(len(rs)), MinSequence: first, MaxSequence: seq[b] - 1, DeleteRowCount: retracts,
			MinKey: paimonwrite.KeyRow(id(rs[0])), MaxKey: paimonwrite.KeyRow(id(rs[len(rs)-1]))})
	}
	if err := w.Commit(schemaID, files); err != nil {
		log.Fatal(err)
	}
}

func main() {
	for _, d := range []string{"schema", "snapshot", "manifest"} {
		if err := os.RemoveAll(d); err != nil {
			log.Fatal(err)
		}
	}
	old, _ := filepath.Glob("bucket-*")
	for _, d := range old {
		if err := os.RemoveAll(d); err != nil {
			log.Fatal(err)
		}
	}
	if err := os.MkdirAll("schema", 0o755); err != nil {
		log.Fatal(err)
	}
	for i, s := range []string{schema0, schema1, schema2} {
		if err := os.WriteFile(filepath.Join("schema", fmt.Sprintf("schema-%d", i)), []byte(s), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	commit(0, []row0{
		{OrderID: 1, OrderName: p("alice"), OrderUserID: p[int64](100), OrderShopID: p[int64](10)},
		{OrderID: 2, OrderName: p("bob"), OrderUserID: p[int64](101), OrderShopID: p[int64](11)},
		{OrderID: 3, OrderName: p("carol"), OrderUserID: p[int64](100)},
		{OrderID: 4, OrderName: p("dave"), OrderShopID: p[int64](12)},
		{OrderID: 5, OrderName: p("erin"), OrderUserID: p[int64](102), OrderShopID: p[int64](10)},
	}, func(r row0) int64 { return r.OrderID }, func(r *row0, s int64) { r.Key, r.Seq = r.OrderID, s }, func(r row0) int8 { return r.Kind })
	commit(1, []row1{
		{OrderID: 6, CustomerName: p("frank"), OrderUserID: p[int64](103), OrderShopID: p[int64](11), Quantity: p[int32](2)},
		{OrderID: 7, CustomerName: p("grace"), OrderUserID: p[int64](100), OrderShopID: p[int64](12)},
		{OrderID: 8, CustomerName: p("heidi"), OrderUserID: p[int64](104), Quantity: p[int32](5)},
		{OrderID: 9, CustomerName: p("ivan"), OrderUserID: p[int64](101), OrderShopID: p[int64](10), Quantity: p[int32](2147483647)},
	}, func(r row1) int64 { return r.OrderID }, func(r *row1, s int64) { r.Key, r.Seq = r.OrderID, s }, func(r row1) int8 { return r.Kind })
	commit(2, []row2{
		{OrderID: 10, CustomerName: p("judy"), OrderUserID: p[int64](105), OrderShopID: p[int64](11), Quantity: p[int64](3000000000), Note: p("gift")},
		{OrderID: 11, OrderUserID: p[int64](100), OrderShopID: p[int64](12), Quantity: p[int64](1)},
		{OrderID: 12, CustomerName: p("mallory"), OrderUserID: p[int64](106), OrderShopID: p[int64](10), Note: p("rush")},
	}, func(r row2) int64 { return r.OrderID }, func(r *row2, s int64) { r.Key, r.Seq = r.OrderID, s }, func(r row2) int8 { return r.Kind })
	commit(2, []row2{
		{Kind: 2, OrderID: 3, CustomerName: p("carol"), OrderUserID: p[int64](100), OrderShopID: p[int64](11), Quantity: p[int64](4), Note: p("moved")},
		{Kind: 3, OrderID: 4, CustomerName: p("dave"), OrderShopID: p[int64](12)},
	}, func(r row2) int64 { return r.OrderID }, func(r *row2, s int64) { r.Key, r.Seq = r.OrderID, s }, func(r row2) int8 { return r.Kind })
}
