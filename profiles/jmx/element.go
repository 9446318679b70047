package jmx

import (
	"strconv"
	"strings"
)

// element is a JMeter test element (a sampler, a manager, a thread
// group…) with the elements of the hashTree that follows it, which is how
// a .jmx file nests its tree.
type element struct {
	n        *node
	children []*element
}

// elementsOf pairs each element of a hashTree with the hashTree after it.
func elementsOf(tree *node) []*element {
	var out []*element
	for i := 0; i < len(tree.children); i++ {
		c := tree.children[i]
		if c.tag == "hashTree" {
			continue // a stray tree without an element; nothing to pair it with
		}
		el := &element{n: c}
		if i+1 < len(tree.children) && tree.children[i+1].tag == "hashTree" {
			el.children = elementsOf(tree.children[i+1])
			i++
		}
		out = append(out, el)
	}
	return out
}

// class is the element's JMeter type: its tag, which JMeter sets to the
// test class (plugins use their full Java class name).
func (e *element) class() string {
	if tc := e.n.attr("testclass"); tc != "" {
		return tc
	}
	return e.n.tag
}

// shortClass drops a Java package prefix for messages.
func (e *element) shortClass() string {
	c := e.class()
	return c[strings.LastIndexByte(c, '.')+1:]
}

func (e *element) name() string        { return e.n.attr("testname") }
func (e *element) enabled() bool       { return e.n.attr("enabled") != "false" }
func (e *element) gui() string         { return e.n.attr("guiclass") }
func (e *element) str(p string) string { return e.n.str(p) }

// str returns the text of the property named p among n's children
// (stringProp, boolProp, intProp, longProp…), trimmed for scalars.
func (n *node) str(p string) string {
	c := n.prop(p)
	switch {
	case c == nil:
		return ""
	case c.tag == "stringProp":
		return c.text.String()
	}
	if v := c.child("value"); v != nil {
		return strings.TrimSpace(v.text.String())
	}
	return strings.TrimSpace(c.text.String())
}

// prop finds the property element named p. Most properties carry their
// name in an attribute; test beans (the throughput timers) write
// <doubleProp><name>…</name><value>…</value></doubleProp>.
func (n *node) prop(p string) *node {
	for _, c := range n.children {
		if !strings.HasSuffix(c.tag, "Prop") {
			continue
		}
		name := c.attr("name")
		if name == "" {
			if nn := c.child("name"); nn != nil {
				name = strings.TrimSpace(nn.text.String())
			}
		}
		if name == p {
			return c
		}
	}
	return nil
}

func (n *node) child(tag string) *node {
	for _, c := range n.children {
		if c.tag == tag {
			return c
		}
	}
	return nil
}

// flag reads a boolProp (or a stringProp holding true/false).
func (n *node) flag(p string, def bool) bool {
	s := strings.TrimSpace(n.str(p))
	if s == "" {
		return def
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return def
	}
	return b
}

// items returns the elements of a collectionProp (or of the
// collectionProp inside an elementProp such as Arguments).
func (n *node) items(p string) []*node {
	c := n.prop(p)
	if c == nil {
		return nil
	}
	if c.tag == "elementProp" {
		for _, cc := range c.children {
			if cc.tag == "collectionProp" {
				return cc.children
			}
		}
		return nil
	}
	return c.children
}
