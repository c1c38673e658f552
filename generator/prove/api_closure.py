# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The text a public function's proof reads, as one digest.

A byte-layer proof runs the function and what it calls on the engine, from the file as a
compiler's preprocessor gives it: its behaviour is fixed by the definitions it reaches (its
callees, transitively; the types, globals and prototypes they name) and by the byte order,
which is also the only configuration the engines take (they key a file's text by it
already). Two folders whose texts of a function agree there run the same proof with the same
verdict, so `prove --api` over several folders proves each such text once: the three
bundles carry the same single-state sponge, SP 800-185 and SnP code and differ in their
dispatch and multi-buffer layouts.
"""

import hashlib

from pycparser import c_ast, c_generator


def digest(unit, name, big_endian):
    """sha256 over the definitions `name` reaches in the unit (None: it defines no `name`)."""
    funcs, named, tags = {}, {}, {}
    for ext in unit.ast.ext:
        if isinstance(ext, c_ast.FuncDef):
            funcs[ext.decl.name] = ext
        elif isinstance(ext, (c_ast.Decl, c_ast.Typedef)):
            if ext.name:
                named.setdefault(ext.name, []).append(ext)
            struct_tags, enumerators = _defines(ext)
            for tag in struct_tags:
                tags.setdefault(tag, []).append(ext)
            for const in enumerators:
                named.setdefault(const, []).append(ext)
    if name not in funcs:
        return None
    gen = c_generator.CGenerator()
    seen, texts, todo = set(), [], [("f", name)]
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        kind, ident = key
        nodes = [funcs[ident]] if kind == "f" and ident in funcs else \
            (tags if kind == "s" else named).get(ident, [])
        for node in nodes:
            texts.append(gen.visit(node))
            ids, structs = _names(node)
            todo += [("f" if i in funcs else "n", i) for i in ids]
            todo += [("s", t) for t in structs]
    text = "\n".join(sorted(set(texts)))
    return hashlib.sha256(f"{name}\n{big_endian}\n{text}".encode()).hexdigest()


def _defines(node):
    """(the tags of the structs and unions a declaration defines with members, the names of
    the enumeration constants it defines)."""
    tags, consts = [], []

    class V(c_ast.NodeVisitor):
        def visit_Struct(self, n):
            if n.name and n.decls is not None:
                tags.append(n.name)
            self.generic_visit(n)

        visit_Union = visit_Struct

        def visit_Enumerator(self, n):
            consts.append(n.name)

    V().visit(node)
    return tags, consts


def _names(node):
    """(identifiers and typedef names a node uses, struct and union tags it names)."""
    ids, tags = set(), set()

    class V(c_ast.NodeVisitor):
        def visit_ID(self, n):
            ids.add(n.name)

        def visit_IdentifierType(self, n):
            ids.update(n.names)

        def visit_FuncCall(self, n):
            if isinstance(n.name, c_ast.ID):
                ids.add(n.name.name)
            self.generic_visit(n)

        def visit_Struct(self, n):
            if n.name:
                tags.add(n.name)
            self.generic_visit(n)

        visit_Union = visit_Struct

    V().visit(node)
    return ids, tags
