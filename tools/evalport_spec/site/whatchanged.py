"""The field-level "what changed" page of one history step (``changes/<version>.md``).

One row per finding the compatibility engine computed between the two versions
(``evalport_spec.compat.compare_versions``, toolchain.md "Compatibility classes"), in report
order (:func:`evalport_spec.report.arrange.arrange`: MAJOR first): its class, the changelog
sentence (:func:`evalport_spec.report.changelog.change_line`), the instance location it is about
(the engine's ``extra["instance_path"]``, array indexes written ``*``), the one value it names
(``Finding.item``: the enum value, type or required name added or lost), the schema location and
the fingerprint an RFC would accept it by. Witness documents of breaking findings follow, folded.
"""

from __future__ import annotations

import json
from typing import Any

from ..findings import Finding
from ..pointer import escape
from ..report.arrange import arrange
from ..report.describe import body, item_text, label, place
from ..report.escape import md_cell, md_code
from ..spec import DRAFT
from .history import Change


def step_page(ch: Change) -> str:
    """``changes/<ch.new>.md`` relative to the version's docs folder."""
    return f"changes/{ch.new}.md"


def instance_pointer(f: Finding) -> str | None:
    """The instance location of ``f`` as a JSON Pointer pattern (``["results", 0, "attempt"]`` ->
    ``/results/*/attempt``; ``""`` for the root), ``None`` when the engine recorded none."""
    path = f.extra.get("instance_path")
    if not isinstance(path, list):
        return None
    return "".join("/*" if isinstance(p, int) else "/" + escape(str(p)) for p in path)


def _title(ch: Change) -> str:
    return "the draft" if ch.new == DRAFT else ch.new


def what_changed(ch: Change, prop_link: Any) -> str:
    """The Markdown of the step's page.

    Args:
        ch: the step (with the engine's findings).
        prop_link: ``(doc_type, path) -> Markdown`` link to a property's reference, or code.
    """
    lines = [f"# What changed in {_title(ch)}", "",
             f"From {ch.old} to {_title(ch)}: computed class **{ch.computed or 'not computed'}**, "
             f"declared by the version number: **{ch.declared}**. Each row is one finding of the "
             "compatibility engine, about one field and, where the change concerns one value of a "
             "list (an `enum` value, a `type`, a `required` name), that value.", ""]
    if ch.engine_error:
        return "\n".join(lines + [f"*Not computed: {ch.engine_error}.*", ""])
    if ch.added or ch.removed:
        if ch.added:
            lines.append("- Properties added: " + ", ".join(f"{t} {prop_link(t, p)}" for t, p in ch.added))
        if ch.removed:
            lines.append("- Properties removed: " + ", ".join(f"{t} `{p}`" for t, p in ch.removed))
        lines.append("")
    entries = arrange((f, None) for f in ch.findings)
    if not entries:
        return "\n".join(lines + ["The engine found no difference.", ""])
    lines += ["| class | change | instance location | value | schema location | fingerprint |",
              "| --- | --- | --- | --- | --- | --- |"]
    for e in entries:
        f = e.finding
        ptr = instance_pointer(f)
        lines.append(f"| {label(f)} | {md_cell(e.change or body(f))} | "
                     f"{md_code(ptr or '/') if ptr is not None else ''} | "
                     f"{md_code(item_text(f)) if f.has_item else ''} | {md_cell(md_code(place(f.where())))} | "
                     f"`{f.fingerprint}` |")
    lines.append("")
    witnessed = [e for e in entries if e.finding.witness is not None]
    if witnessed:
        lines += ["## Witnesses {#witnesses}", "",
                  "A witness is a document the older version accepts and this one rejects.", ""]
        for e in witnessed:
            title = (e.change or e.finding.kind).replace('"', "'")
            lines += [f'??? example "{title}"', "", "    ```json"]
            lines += ["    " + ln for ln in json.dumps(e.finding.witness, indent=2, ensure_ascii=False).split("\n")]
            lines += ["    ```", ""]
    return "\n".join(lines)
