#!/usr/bin/env python3
"""docs/check_api.py - keeps docs/api.md from drifting behind the headers.

Reads the headers (runtime/scanvec, primitives/scanvec, algorithms/scanvec,
their detail/ folders too), collects every name declared at namespace scope
outside a `detail` (or `*_detail`) namespace - classes, structs, enums,
aliases, functions, variables - and the SCANVEC_* macros they define (not the SCANVEC_PP_* and SCANVEC_DETAIL_*
helpers, nor those of detail/ folders), and fails,
naming them, when docs/api.md does not mention one. A name declared in
scanvec::lazy counts as mentioned when `lazy::name` (or `sv::lazy::name`)
appears; a name of scanvec itself when `name` appears not preceded by
another namespace (`sv::name`, `scanvec::name` or bare `name`). Only the
page's code counts (`inline code` and code blocks), not its prose.

Then, when the team's contract ../shared/design/api.md lies beside the
checkout (CI puts a copy of shared/ there), every sv:: name and SCANVEC_*
macro it uses, and every member it calls (`a.to_host()`), must appear in
docs/api.md too; without it that part is skipped with a note.

    python3 docs/check_api.py [repository root]     # exit 1 when a name is missing
    python3 docs/check_api.py --list                # print the public names found

CTest runs it in every build (tests/CMakeLists.txt: docs_api_names).
"""
import os
import re
import sys

HEADER_ROOTS = ["runtime/scanvec", "primitives/scanvec", "algorithms/scanvec"]


LEXEMES = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|(?<![0-9A-Za-z_])'(?:\\.|[^'\\\n])*'""", re.S)


def strip_comments_and_strings(text):
    """Blanks comments, string and character literals (keeps newlines)."""
    def blank(m):
        t = m.group(0)
        if t.startswith("/"):
            return "\n" * t.count("\n")
        return t[0] * 2
    return LEXEMES.sub(blank, text)


def preprocess(text):
    """Drops preprocessor lines (both branches of an #if are read), returns
    (code, macros defined)."""
    macros = []
    lines = text.split("\n")
    code = []
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.lstrip().startswith("#"):
            m = re.match(r"\s*#\s*define\s+(\w+)", line)
            if m:
                macros.append(m.group(1))
            while line.endswith("\\") and k + 1 < len(lines):
                k += 1
                line = lines[k]
            code.append("")
        else:
            code.append(line)
        k += 1
    code = "\n".join(code)
    code = code.replace("SCANVEC_NAMESPACE_BEGIN", "namespace scanvec { inline namespace SCANVEC_ABI {")
    code = code.replace("SCANVEC_NAMESPACE_END", "} }")
    # A macro invoked at namespace scope on a line of its own (a struct's
    # SCANVEC_FIELDS, a library macro that declares an overload) ends there:
    # what it declares is the macro's (the ADL hook scanvec_fields_of, a
    # guard), and the declaration after it is read on its own.
    code = re.sub(r"(?m)^[ \t]*[A-Z][A-Z0-9_]*[ \t]*\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*$", ";", code)
    return code, macros


def strip_template_heads(head):
    """Removes `template <...>` parameter lists (angle brackets inside
    parentheses are comparisons, not brackets)."""
    while True:
        m = re.search(r"\btemplate\s*<", head)
        if not m:
            return head
        i = m.end()
        depth, paren = 1, 0
        while i < len(head) and depth:
            ch = head[i]
            if ch == "(":
                paren += 1
            elif ch == ")":
                paren -= 1
            elif paren == 0 and ch == "<":
                depth += 1
            elif paren == 0 and ch == ">":
                depth -= 1
            i += 1
        head = head[: m.start()] + " " + head[i:]


def drop_angles(s):
    """Removes template argument lists (<...>) outside parentheses."""
    out, depth, paren = [], 0, 0
    for ch in s:
        if ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
        if paren == 0 and ch == "<":
            depth += 1
            continue
        if paren == 0 and ch == ">" and depth:
            depth -= 1
            continue
        if depth == 0:
            out.append(ch)
    return "".join(out)


KEYWORDS = {"inline", "constexpr", "static", "const", "extern", "friend", "typename", "auto", "void",
            "noexcept", "explicit", "virtual", "operator", "return", "decltype", "sizeof"}


def declared_name(head):
    """The name a namespace-scope declaration (its text up to `{` or `;`) declares, and its kind."""
    head = strip_template_heads(head)
    head = re.sub(r"\[\[[^\]]*\]\]", " ", head)  # attributes
    head = " ".join(head.split())
    if not head:
        return None
    m = re.match(r"(?:(?:inline|static|extern)\s+)*using\s+(\w+)\s*=", head)
    if m:
        return m.group(1), "alias"
    if re.match(r"using\b", head) or head.startswith("static_assert") or head.startswith("namespace"):
        return None
    m = re.match(r"(?:enum\s+(?:class|struct)?|class|struct|union)\s+(?:alignas\([^)]*\)\s+)?(\w+)", head)
    if m:
        return m.group(1), "class"
    flat = drop_angles(head)
    p = flat.find("(")
    eq = flat.find("=")
    if p >= 0 and (eq < 0 or p < eq):
        before = flat[:p].rstrip()
        if re.search(r"::\s*~?\w+$", before):  # a member defined outside its class
            return None
        if re.search(r"\boperator\s*\S*$", before):
            return None
        m = re.search(r"(\w+)$", before)
        if m and m.group(1) not in KEYWORDS:
            return m.group(1), "function"
        return None
    before = flat[:eq] if eq >= 0 else flat
    m = re.search(r"(\w+)\s*$", before)
    if m and m.group(1) not in KEYWORDS:
        return m.group(1), "variable"
    return None


def is_private_namespace(name):
    return name == "detail" or name.endswith("_detail")


BRACE = re.compile(r"[{}]")


def names_in(code):
    """(namespace path below scanvec, name, kind) for each public namespace-scope declaration."""
    found = []
    namespaces = []  # the namespaces open, innermost last (`namespace a::b {` is one entry)
    bodies = 0       # braces open inside a declaration (a class or function body, an initialiser)
    head = []
    paren = 0
    i, n = 0, len(code)
    while i < n:
        if bodies:  # skip to the next brace
            m = BRACE.search(code, i)
            if not m:
                break
            i = m.end()
            if m.group(0) == "{":
                bodies += 1
            else:
                bodies -= 1
                if not bodies:
                    head = []
            continue
        ch = code[i]
        i += 1
        if ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
        if paren > 0 or ch not in "{};":
            head.append(ch)
            continue
        text = " ".join("".join(head).split())
        head = []
        if ch == "}":
            if namespaces:
                namespaces.pop()
            continue
        m = re.match(r"(?:inline\s+)?namespace\s*([\w:]*)\s*$", text)
        if ch == "{" and m:
            namespaces.append(m.group(1) or "(anonymous)")
            continue
        if ch == "{":
            bodies = 1
        decl = declared_name(text)
        if decl:
            ns = [x for part in namespaces for x in part.split("::") if x != "SCANVEC_ABI"]
            if ns[:1] == ["scanvec"] and not any(is_private_namespace(x) or x == "(anonymous)" for x in ns[1:]):
                found.append(("::".join(ns[1:]), decl[0], decl[1]))
    if paren != 0 or bodies or namespaces:
        raise ValueError("unbalanced braces or parentheses (an #if whose branches differ?)")
    return found


def public_headers(root):
    for top in HEADER_ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(dirnames)  # detail/ folders too: a name outside namespace detail is public
            for f in sorted(filenames):
                if f.endswith(".hpp"):
                    yield os.path.join(dirpath, f)


def public_names(root):
    names = {}  # (namespace, name) -> (kind, first header)
    macros = {}
    for path in public_headers(root):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        code, defined = preprocess(strip_comments_and_strings(text))
        rel = os.path.relpath(path, root)
        try:
            decls = names_in(code)
        except ValueError as e:
            raise SystemExit(f"check_api: {rel}: {e}")
        for ns, name, kind in decls:
            names.setdefault((ns, name), (kind, rel))
        for mac in defined:
            if (mac.startswith("SCANVEC_") and not mac.startswith(("SCANVEC_PP_", "SCANVEC_DETAIL_"))
                    and not mac.endswith("_") and "/detail/" not in rel):
                macros.setdefault(mac, rel)
    return names, macros


def code_of(markdown):
    """The code of a Markdown page: its `inline code` and its indented or fenced
    blocks; a name counts as documented when it appears there, as code."""
    parts = re.findall(r"```.*?```", markdown, flags=re.S)
    rest = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    parts += re.findall(r"`([^`\n]+)`", rest)
    parts += [line for line in rest.split("\n") if line.startswith("    ")]
    return "\n".join(parts)


def mentioned(doc, ns, name):
    """Whether doc names ns::name: `[sv::|scanvec::]ns::name` not preceded by another namespace."""
    qualified = (ns + "::" if ns else "") + name
    pattern = r"(?<![\w:])(?:(?:sv|scanvec)::)?" + re.escape(qualified) + r"\b"
    if re.search(pattern, doc):
        return True
    return False


def contract_names(text):
    """What the team's contract names: sv:: names, SCANVEC_* macros, members called."""
    code = "\n".join(re.findall(r"`([^`]*)`", text))
    code += "\n" + "\n".join(line for line in text.split("\n") if line.startswith("    "))
    names = set(re.findall(r"\bsv::[A-Za-z_][\w]*(?:::[A-Za-z_]\w*)*", code))
    names |= set(re.findall(r"\bSCANVEC_[A-Z_]+\b", text))
    members = set(re.findall(r"\.(\w+)(?:<[^>]*>)?\(", code))
    return sorted(names), sorted(members)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    names, macros = public_names(root)
    if "--list" in argv:
        for (ns, name), (kind, rel) in sorted(names.items()):
            print(f"{kind:9} {(ns + '::' if ns else '') + name:45} {rel}")
        for mac, rel in sorted(macros.items()):
            print(f"{'macro':9} {mac:45} {rel}")
        return 0
    doc_path = os.path.join(root, "docs", "api.md")
    with open(doc_path, encoding="utf-8") as fh:
        doc = code_of(fh.read())
    missing = []
    for (ns, name), (kind, rel) in sorted(names.items()):
        if not mentioned(doc, ns, name):
            missing.append(f"  sv::{(ns + '::' if ns else '') + name} ({kind}, {rel})")
    for mac, rel in sorted(macros.items()):
        if not re.search(r"\b" + re.escape(mac) + r"\b", doc):
            missing.append(f"  {mac} (macro, {rel})")
    ok = True
    print(f"check_api: {len(names)} public names and {len(macros)} macros in the headers")
    if missing:
        ok = False
        print("check_api: docs/api.md does not mention these public names of the headers:")
        print("\n".join(missing))
    contract = os.path.join(root, "..", "shared", "design", "api.md")
    if os.path.exists(contract):
        with open(contract, encoding="utf-8") as fh:
            cnames, members = contract_names(fh.read())
        absent = [x for x in cnames if not re.search(r"(?<![\w:])" + re.escape(x) + r"\b", doc)
                  and not mentioned(doc, "::".join(x.split("::")[1:-1]), x.split("::")[-1])]
        absent += [f"{m}() (a member the contract calls)" for m in members
                   if not re.search(r"\b" + re.escape(m) + r"\b", doc)]
        print(f"check_api: {len(cnames)} names and {len(members)} members in the contract ({os.path.normpath(contract)})")
        if absent:
            ok = False
            print("check_api: docs/api.md does not mention these names of the team's contract:")
            print("\n".join("  " + x for x in absent))
    else:
        print("check_api: note: no ../shared/design/api.md beside the checkout; the contract's names are not checked")
    if ok:
        print("check_api: docs/api.md mentions every one")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
