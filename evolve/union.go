package evolve

import "github.com/lakecat/lakecat/schema"

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// unionStruct merges incoming into st (see [UpdateSchema.UnionByName]).
func (a *applier) unionStruct(c *change, st *schema.StructType, path string, incoming []*schema.Field, errs *[]error) {
	for _, in := range incoming {
		p := joinPath(path, in.Name)
		ex := a.sibling(st, in.Name, nil)
		if ex == nil {
			nf := in.Clone()
			nf.ID = a.nextID()
			nf.Required = false
			nf.InitialDefault, nf.WriteDefault = nil, nil
			a.assignIDs(nf.Type)
			st.Fields = append(st.Fields, nf)
			continue
		}
		a.unionField(c, ex, in, p, errs)
	}
}

func (a *applier) unionField(c *change, ex, in *schema.Field, path string, errs *[]error) {
	fail := func(err error, detail string, args ...any) {
		e := a.fail(c, err, detail, args...).(*ChangeError)
		e.Path = path
		*errs = append(*errs, e)
	}
	if !in.Required && ex.Required {
		if a.identifiers[ex.ID] {
			fail(ErrIdentifierField, "field id %d", ex.ID)
		} else {
			ex.Required = false // a map key is made required again below
		}
	}
	if in.Doc != "" && in.Doc != ex.Doc {
		ex.Doc = in.Doc
	}
	if ex.Type.Kind() != in.Type.Kind() {
		fail(ErrIncompatibleType, "%s vs %s", ex.Type, in.Type)
		return
	}
	switch et := ex.Type.(type) {
	case schema.PrimitiveType:
		if et != in.Type.(schema.PrimitiveType) {
			fail(ErrIncompatibleType, "%s vs %s", ex.Type, in.Type)
		}
	case *schema.StructType:
		a.unionStruct(c, et, path, in.Type.(*schema.StructType).Fields, errs)
	case *schema.ListType:
		a.unionField(c, et.Element, in.Type.(*schema.ListType).Element, path+"."+schema.ElementName, errs)
	case *schema.MapType:
		it := in.Type.(*schema.MapType)
		a.unionField(c, et.Key, it.Key, path+"."+schema.KeyName, errs)
		et.Key.Required = true
		a.unionField(c, et.Value, it.Value, path+"."+schema.ValueName, errs)
	}
}
