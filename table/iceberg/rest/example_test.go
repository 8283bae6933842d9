package rest_test

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/internal/restcatalog"
	"github.com/lakecat/lakecat/table/iceberg/rest"
)

// ExampleClient_LoadTable connects to a catalog with a bearer token, lists
// a namespace and loads a table; its metadata location is what a reader
// opens (here an in-process catalog serving the bundled demo table).
func ExampleClient_LoadTable() {
	srv := restcatalog.New(restcatalog.Options{Token: "example-token", Prefix: "warehouse"})
	defer srv.Close()
	if err := srv.Register([]string{"db"}, "orders", "../../../testdata/orders/metadata/v1.metadata.json"); err != nil {
		fmt.Println(err)
		return
	}

	ctx := context.Background()
	c, err := rest.New(ctx, rest.Options{URI: srv.URL, Token: "example-token"})
	if err != nil {
		fmt.Println(err)
		return
	}
	tables, err := c.ListTables(ctx, []string{"db"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("tables:", tables[0])
	id, _ := rest.ParseIdentifier("db.orders")
	t, err := c.LoadTable(ctx, id)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := t.Metadata
	fmt.Println("format version:", m.FormatVersion, "current schema:", m.CurrentSchemaID, "last-column-id:", m.LastColumnID)
	fmt.Println("fields:", m.CurrentSchema().Fields[0].Name, "…", len(m.CurrentSchema().Fields))
	// Output:
	// tables: db.orders
	// format version: 3 current schema: 2 last-column-id: 8
	// fields: order_shop_id … 7
}
