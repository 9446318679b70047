package testserver

import (
	"encoding/json"
)

// judge runs a body through the collector's steps, in its order:
//
//  1. parse it as org.json does (or, with StrictJSON, as strict JSON);
//  2. with schemas: "event" (or "eventList") must be there, then the whole
//     body must conform to the API version's CommonEventFormat schema;
//  3. with the 3GPP schema map: each stndDefined event's data must conform
//     to the schema its schemaReference names;
//  4. the batch checks (one domain; stndDefined: one namespace on each);
//  5. the first event's domain (a stndDefined event's namespace) must
//     have a stream.
//
// Without schemas the single-pass checker's built-in header rules stand
// in for step 2. The checker always does step 4 and hashes the event IDs.
func (s *Server) judge(c *checker, body []byte, version string, batch bool) verdict {
	// The checker's one pass also tells whether the body is plain JSON,
	// which org.json parses to the same document: then its verdict on the
	// body stands, and only schemas need the parsed document.
	c.enforce = s.opts.schemas == nil && !s.opts.NoValidate
	v := c.check(body, batch)
	if !c.plainJSON() {
		return s.judgeParsed(c, body, version, batch)
	}
	want := bodyKey(batch)
	var tree map[string]any
	if s.opts.schemas != nil {
		var err error
		if tree, err = parseOrgJSONSized(body, &c.names, c.sc.sizes); err != nil { // plain JSON: cannot fail
			return verdict{outcome: outcomeParseCrash, problem: err.Error()}
		}
		if sv := s.schemaCheck(tree, want, version); sv.outcome != outcomeOK {
			return sv
		}
	}
	if v.outcome != outcomeOK {
		return v
	}
	if id, ok := c.stream(); ok {
		if _, ok := s.opts.streams[string(id)]; !ok {
			return unrouted(v)
		}
		return v
	}
	if tree == nil {
		tree, _ = parseOrgJSONSized(body, &c.names, c.sc.sizes) // plain JSON: cannot fail
	}
	if _, ok := s.opts.streams[streamOf(tree, want)]; !ok {
		return unrouted(v)
	}
	return v
}

// unrouted is the verdict on a valid request whose stream id has no
// stream.
func unrouted(v verdict) verdict {
	return verdict{outcome: outcomeUnrouted, events: v.events, field: "commonEventHeader.domain", problem: "no stream for it"}
}

// judgeParsed is judge for a body that is not plain JSON (or that the
// checker could not vouch for): it goes through the collector's parse.
func (s *Server) judgeParsed(c *checker, body []byte, version string, batch bool) verdict {
	valid := json.Valid(body)
	if s.opts.StrictJSON && !valid {
		return verdict{outcome: outcomeBadJSON, problem: "invalid JSON"}
	}
	if len(body) == 0 {
		return verdict{outcome: outcomeEmptyBody, problem: "no body"}
	}
	tree, err := parseOrgJSONSized(body, &c.names, nil)
	if err != nil {
		if s.opts.StrictJSON {
			return verdict{outcome: outcomeBadJSON, problem: "invalid JSON"}
		}
		return verdict{outcome: outcomeParseCrash, problem: err.Error()}
	}
	want := bodyKey(batch)
	if v := s.schemaCheck(tree, want, version); v.outcome != outcomeOK {
		return v
	}
	if !valid {
		// org.json accepted what encoding/json would not: hand the
		// checker the document as the collector sees it.
		if body, err = json.Marshal(tree); err != nil {
			return verdict{outcome: outcomeParseCrash, problem: err.Error()}
		}
	}
	c.enforce = s.opts.schemas == nil && !s.opts.NoValidate
	v := c.check(body, batch)
	if v.outcome != outcomeOK {
		return v
	}
	if _, ok := s.opts.streams[streamOf(tree, want)]; !ok {
		return unrouted(v)
	}
	return v
}

// schemaCheck is steps 2 and 3 of judge.
func (s *Server) schemaCheck(tree map[string]any, want, version string) verdict {
	if s.opts.schemas == nil {
		return verdict{}
	}
	v, _ := s.opts.schemas.conform(tree, want, version, !s.opts.NoValidate)
	return v
}

// conform is steps 2 and 3 of judge on a parsed document: with schema,
// want is there and the document conforms to version's schema (when one
// describes version); then the data of stndDefined events conforms to
// externalRepo. err is the schema validator's explanation of a step 2
// failure. The emulator and Schemas.Check judge by it alike.
func (set *schemaSet) conform(tree map[string]any, want, version string, schema bool) (v verdict, err error) {
	if schema {
		if _, ok := tree[want]; !ok {
			return verdict{outcome: outcomeBadJSON, problem: "missing " + want}, nil
		}
		if sch := set.byVersion[version]; sch != nil {
			if err := sch.Validate(any(tree)); err != nil {
				return verdict{outcome: outcomeSchema, field: want, problem: "does not conform to the schema"}, err
			}
		}
	}
	return set.stndCheck(tree, want), nil
}

// stndCheck is step 3 of judge: the data of every stndDefined event
// against the schema its schemaReference names in externalRepo.
func (set *schemaSet) stndCheck(tree map[string]any, want string) verdict {
	if set.stnd == nil {
		return verdict{}
	}
	for _, ev := range events(tree, want) {
		switch set.stnd.check(ev) {
		case stndInvalid:
			return verdict{outcome: outcomeStndInvalid, field: "stndDefinedFields.data", problem: "does not conform to its schema"}
		case stndNoLocalSchema:
			return verdict{outcome: outcomeNoLocalSchema, field: "stndDefinedFields.schemaReference", problem: "not in the schema map"}
		case stndBadInternalRef:
			return verdict{outcome: outcomeBadInternalRef, field: "stndDefinedFields.schemaReference", problem: "names nothing in its file"}
		case stndCrash:
			return verdict{outcome: outcomeParseCrash, field: "stndDefinedFields.schemaReference", problem: "only '#'"}
		}
	}
	return verdict{}
}

// events returns the event objects of a body (those that are objects).
func events(tree map[string]any, want string) []map[string]any {
	var out []map[string]any
	switch v := tree[want].(type) {
	case map[string]any:
		out = append(out, v)
	case []any:
		for _, e := range v {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// streamOf is the collector's stream id of a request: the first event's
// domain, or for a stndDefined event its stndDefinedNamespace.
func streamOf(tree map[string]any, want string) string {
	evs := events(tree, want)
	if len(evs) == 0 {
		return ""
	}
	header, _ := evs[0]["commonEventHeader"].(map[string]any)
	domain, _ := header["domain"].(string)
	if domain == "stndDefined" {
		ns, _ := header["stndDefinedNamespace"].(string)
		return ns
	}
	return domain
}
