"""JUnit XML of a CI gate (``sigtest --fail-if ... --junit FILE``): the test
report CI systems display (GitLab, Jenkins, GitHub test reporters).

One ``<testcase>`` per comparison the gate looked at (``Gate.cases``), named
``CHALLENGER vs BASELINE on MEASURE (TEST)`` with classname
``ipsoeval.COMMAND.MEASURE``; a comparison that failed the gate carries a
``<failure>`` whose message is the gate's line for it and whose text is that
line as the gate prints it (``ipsoeval: gate failed: ...``).  The suite's
properties hold the gate's decision and reason.  No time stamps or host
names: the same inputs give the same bytes.  Valid under the JUnit schema
Jenkins reads (junit-10.xsd; tests/unit/formatters/test_junit.py).
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from ipsoeval.ids import shown
from ipsoeval.results import Report

# characters XML 1.0 does not allow (C0 controls but tab, newline, return)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(s) -> str:
    return _NOT_XML.sub("?", shown(str(s)))


def _attr(s) -> str:
    return quoteattr(_text(s), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def render_junit(report: Report, *, suite: str | None = None) -> str:
    """The XML document of ``report.gate`` (a report with a gate)."""
    gate = report.gate
    if gate is None:
        raise ValueError(f"{report.command}: no gate to report")
    name = suite or f"ipsoeval {report.command}"
    cases = list(gate.cases)
    n, failures = len(cases), sum(1 for c in cases if c[2] is not None)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={_attr(name)} tests="{n}" failures="{failures}" errors="0" '
           f'time="0">',
           f'  <testsuite name={_attr(name)} tests="{n}" failures="{failures}" errors="0" '
           f'skipped="0" time="0">',
           '    <properties>',
           f'      <property name="gate" value="{"passed" if gate.passed else "failed"}"/>',
           f'      <property name="reason" value={_attr(gate.reason)}/>',
           '    </properties>']
    for case_name, classname, failure in cases:
        head = f'    <testcase name={_attr(case_name)} classname={_attr(classname)} time="0"'
        if failure is None:
            out.append(head + "/>")
            continue
        out += [head + ">",
                f'      <failure type="gate" message={_attr(failure)}>'
                f'{escape(_text("ipsoeval: gate failed: " + failure))}</failure>',
                "    </testcase>"]
    out += ["  </testsuite>", "</testsuites>", ""]
    return "\n".join(out)
