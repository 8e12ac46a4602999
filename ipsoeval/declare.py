"""One declaration per option: what a command line, the Python API, ``--help``,
the fast paths' parser and the man pages all read.

An option is a field of an options dataclass (an analysis's ``Options``,
:class:`ipsoeval.align_options.AlignOptions`, ...) made by :func:`option`: the
field's name is the Python keyword, its metadata an :class:`Opt` carrying the
flags, the value's kind, the choices, the default and the help text.  A
command is a :class:`Command`: its name, its help text, its positional
arguments and the ordered groups of options it takes (:class:`Group`: an
options dataclass, with the fields a command leaves out or words its own way).
From that one declaration come

* the click command (:func:`ipsoeval.cli.build.click_command`, the only place
  click is named);
* :func:`parse`, the parser of the fast paths (no click, no numpy): every
  value converted and range-checked as the click command would, or ``None``
  where it would not take the call the same way (then the full program runs
  and words the error);
* :func:`render_help`: ``--help`` laid out as click lays help out, without
  importing click, at any terminal width -- both the fast path and the click
  command print this text;
* :func:`api_signature` and :func:`api_doc`: the keyword arguments and the
  parameter list of the Python API's function;
* :func:`man_synopsis` and :func:`man_options`: what the man page's SYNOPSIS
  and OPTIONS sections must name (tests/project/test_docs.py compares).

Only the standard library is imported here, lazily where it costs: the
console script renders help through this module before anything heavier is
loaded.
"""

from __future__ import annotations

import os
import sys

KINDS = ("flag", "text", "int", "float", "choice", "count")


class _Missing:
    """No value given (an API default that is the command line's)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()

# the value kinds' names in the option column of --help, as click spells them
_KIND_METAVAR = {"text": "TEXT", "int": "INTEGER", "float": "FLOAT"}


class Opt:
    """One option: how it is spelled, what it takes, what --help says.

    ``kind``: ``flag`` (no value; True when given), ``text``, ``int``,
    ``float`` or ``choice`` (one of ``choices``).  ``multiple``: repeatable,
    the values a tuple.  ``low``/``high`` bound a number (``low_open``,
    ``high_open``: the bound itself is refused), as click's IntRange and
    FloatRange do.  ``default_text``: what ``[default: ...]`` says where the
    default is not a plain value (``show_default`` shows the value itself).
    ``cli``/``api``: whether the command line and the Python API take it
    (--format is the command line's; the API returns a Report).
    ``api_name``/``api_default``: the API's keyword and default where they
    are not the field's name and the command line's default (``engine`` for
    --engine's ``engine_name``; eval's topic set, ``"qrels"`` in the API).
    ``secret``: hidden from --help (a second spelling listed elsewhere).
    ``usage``: the option column's text where it is not the flags and the
    metavar (``--queries [...] | -c``).  ``check``: a function of the value,
    raising :class:`ipsoeval.errors.UsageError`, run by every door once the
    value is converted."""

    __slots__ = ("flags", "dest", "kind", "choices", "multiple", "default", "help",
                 "metavar", "show_default", "default_text", "low", "high", "low_open",
                 "high_open", "hidden", "required", "cli", "api", "usage", "check", "eager",
                 "api_name", "api_default")

    def __init__(self, *flags: str, kind: str = "text", choices=(), multiple: bool = False,
                 default=None, help: str = "", metavar: str | None = None,
                 show_default: bool = False, default_text: str | None = None, low=None,
                 high=None, low_open: bool = False, high_open: bool = False,
                 hidden: bool = False, required: bool = False, cli: bool = True,
                 api: bool = True, usage: str | None = None, check=None, dest: str = "",
                 eager: bool = False, api_name: str = "", api_default=MISSING):
        if kind not in KINDS:
            raise ValueError(f"unknown option kind {kind!r}")
        self.flags, self.kind, self.choices = tuple(flags), kind, tuple(choices)
        self.multiple, self.default, self.help = multiple, default, help
        self.metavar, self.show_default, self.default_text = metavar, show_default, default_text
        self.low, self.high, self.low_open, self.high_open = low, high, low_open, high_open
        self.hidden, self.required, self.cli, self.api = hidden, required, cli, api
        self.usage, self.check, self.dest, self.eager = usage, check, dest, eager
        self.api_name, self.api_default = api_name, api_default

    def replace(self, **changes) -> "Opt":
        new = Opt.__new__(Opt)
        for name in Opt.__slots__:
            setattr(new, name, changes.get(name, getattr(self, name)))
        return new

    def __repr__(self) -> str:
        return f"Opt({', '.join(self.flags)} -> {self.dest})"

    # -- what --help shows ----------------------------------------------------

    @property
    def is_range(self) -> bool:
        return self.kind in ("int", "float") and (self.low is not None or self.high is not None)

    def value_metavar(self) -> str:
        if self.metavar is not None:
            return self.metavar
        if self.kind == "choice":
            return "[" + "|".join(self.choices) + "]"
        return _KIND_METAVAR[self.kind] + (" RANGE" if self.is_range else "")

    def range_text(self) -> str:
        lo, hi = self.low, self.high
        if lo is None:
            return f"x{'<' if self.high_open else '<='}{hi}"
        if hi is None:
            return f"x{'>' if self.low_open else '>='}{lo}"
        return f"{lo}{'<' if self.low_open else '<='}x{'<' if self.high_open else '<='}{hi}"

    def help_record(self) -> tuple[str, str]:
        """(the option column, the text column) of this option's --help line."""
        if self.usage is not None:
            left = self.usage
        else:
            flags = sorted(self.flags, key=lambda f: 2 if f.startswith("--") else 1)
            left = ", ".join(flags)
            if self.kind not in ("flag", "count"):
                left += " " + self.value_metavar()
        extra = []
        if self.default_text is not None:
            extra.append(f"default: {self.default_text}")
        elif self.show_default and self.default is not None and self.kind != "flag":
            d = self.default
            extra.append("default: " + (", ".join(map(str, d)) if isinstance(d, (list, tuple))
                                        else str(d)))
        if self.is_range:
            extra.append(self.range_text())
        if self.required:
            extra.append("required")
        text = self.help
        if extra:
            tail = "[" + "; ".join(extra) + "]"
            text = f"{text}  {tail}" if text else tail
        return left, text

    # -- what the parser makes of a value ------------------------------------

    def convert(self, text: str):
        """The value of ``text`` as the click command converts it, or raise
        ValueError with the reason."""
        if self.kind == "choice":
            if text not in self.choices:
                raise ValueError(f"{text!r} is not one of {', '.join(map(repr, self.choices))}")
            return text
        if self.kind == "int":
            value = _int(text)
        elif self.kind == "float":
            value = float(text)
            if value != value:
                raise ValueError("not a number")
        else:
            return text
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            raise ValueError(f"{text} is not in the range {self.range_text()}")
        if self.high is not None and (value > self.high
                                      or (self.high_open and value == self.high)):
            raise ValueError(f"{text} is not in the range {self.range_text()}")
        return value

    def empty(self):
        """The value when the option is not given."""
        if self.multiple:
            return tuple(self.default or ())
        if self.kind == "flag":
            return bool(self.default)
        if self.kind == "count":
            return int(self.default or 0)
        return self.default

    @property
    def keyword(self) -> str:
        """The API's keyword of this option."""
        return self.api_name or self.dest

    def api_empty(self):
        """The API's default of this option (a repeatable one: its default
        values, else None)."""
        if self.api_default is not MISSING:
            return self.api_default
        return (self.empty() or None) if self.multiple else self.empty()


def _int(text: str) -> int:
    """An integer as click's INT reads it (Python's int(), signs and
    underscores included, spaces around it stripped)."""
    return int(text.strip())


class Field:
    """A field of an :func:`options` class: its default (``factory``: a
    function making it afresh for each instance) and, for an option, its
    :class:`Opt`."""

    __slots__ = ("name", "default", "factory", "opt")

    def __init__(self, default=MISSING, factory=None, opt=None):
        self.name, self.default, self.factory, self.opt = "", default, factory, opt

    def make(self):
        if self.factory is not None:
            return self.factory()
        if self.default is MISSING:
            raise TypeError(f"missing argument {self.name!r}")
        return self.default


def option(*flags: str, default=None, **kw) -> Field:
    """A field declaring an option: ``default`` is the field's default (a
    list is copied per instance), the rest the :class:`Opt`'s."""
    if default is None and kw.get("kind") == "flag":
        default = False
    o = Opt(*flags, default=default, **kw)
    if isinstance(default, list):
        return Field(factory=lambda: list(default), opt=o)
    return Field(default, opt=o)


def value(default=MISSING, *, factory=None) -> Field:
    """A field that is not an option (the analysis's own state), with its
    default or ``factory``."""
    return Field(default, factory)


def options(cls):
    """Make ``cls`` a class of options, as ``@dataclass`` would make it
    (keyword or positional construction in field order, defaults, a fresh
    list per instance, ``__post_init__``, ``__repr__``, ``__eq__``) from its
    annotated fields -- :func:`option`, :func:`value` or plain defaults.

    Not ``dataclasses.dataclass``: importing dataclasses costs the quick
    paths ~20 ms of CPU (it imports inspect, ast, dis, tokenize and enum),
    more than eval's whole quick path on a small run; the fields here need
    nothing more than this."""
    fields = {}
    for klass in reversed(cls.__mro__[1:]):
        fields.update(getattr(klass, "__option_fields__", {}))
    for name in cls.__dict__.get("__annotations__", {}):
        if name.startswith("__"):
            continue
        raw = cls.__dict__.get(name, MISSING)
        f = raw if isinstance(raw, Field) else Field(raw)
        f.name = name
        if f.opt is not None:
            f.opt.dest = name
        fields[name] = f
        if isinstance(raw, Field):
            if f.factory is None and f.default is not MISSING:
                setattr(cls, name, f.default)
            else:
                delattr(cls, name)
    names = tuple(fields)
    post = getattr(cls, "__post_init__", None)

    def __init__(self, *args, **kw):
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} positional arguments "
                            f"but {len(args)} were given")
        for name, arg in zip(names, args):
            if name in kw:
                raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
            kw[name] = arg
        for name in names:
            if name in kw:
                setattr(self, name, kw.pop(name))
            else:
                try:
                    setattr(self, name, fields[name].make())
                except TypeError:
                    raise TypeError(f"{cls.__name__}() missing argument {name!r}") from None
        if kw:
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument "
                            f"{next(iter(kw))!r}")
        if post is not None:
            self.__post_init__()

    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{cls.__qualname__}({inner})"

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    cls.__option_fields__ = fields
    cls.__init__, cls.__repr__, cls.__eq__, cls.__hash__ = __init__, __repr__, __eq__, None
    return cls


def field_names(cls) -> tuple:
    """The fields of an :func:`options` class, in order."""
    return tuple(cls.__option_fields__)


def replace(obj, **changes):
    """A copy of an :func:`options` instance with ``changes`` (as
    ``dataclasses.replace``; ``__post_init__`` runs again)."""
    kw = {n: getattr(obj, n) for n in obj.__option_fields__}
    kw.update(changes)
    return obj.__class__(**kw)


def opts_of(cls) -> list[Opt]:
    """The options a class declares, in field order, each knowing its
    field's name (an :func:`options` class, or a dataclass of
    :func:`option` fields)."""
    return [f.opt for f in cls.__option_fields__.values() if f.opt is not None]


class Arg:
    """A positional argument: ``metavar`` as usage shows it (``RUN...``),
    ``many``: it takes the rest of the positionals; ``required``: at least one."""

    __slots__ = ("dest", "metavar", "many", "required")

    def __init__(self, dest: str, metavar: str, *, many: bool = False, required: bool = True):
        self.dest, self.metavar, self.many, self.required = dest, metavar, many, required


class Group:
    """The options of ``cls`` (a dataclass of :func:`option` fields) as one
    command takes them: ``without`` the fields it does not take, ``words``
    the fields it words its own way ({field: {Opt attribute: value}}) --
    the command's own wording of a shared option, declared with the command;
    ``api``: whether the Python API's function takes them (the alignment
    options are ``evaluate``'s, not an analysis's)."""

    __slots__ = ("cls", "without", "words", "api", "_opts")

    def __init__(self, cls, *, without=(), words=None, api: bool = True):
        self.cls, self.without, self.words, self._opts = cls, frozenset(without), words or {}, None
        self.api = api

    def opts(self) -> list[Opt]:
        if self._opts is None:
            unknown = (set(self.without) | set(self.words)) - {o.dest for o in opts_of(self.cls)}
            if unknown:
                raise ValueError(f"{self.cls.__name__} declares no option {sorted(unknown)}")
            out = [o.replace(**self.words[o.dest]) if o.dest in self.words else o
                   for o in opts_of(self.cls) if o.dest not in self.without]
            self._opts = out if self.api else [o.replace(api=False) for o in out]
        return self._opts


HELP_OPT = Opt("-h", "--help", kind="flag", help="Show this message and exit.", dest="help",
               api=False)


class Command:
    """A subcommand: its name, its help (paragraphs; the first is the
    summary ``ipsoeval --help`` lists), its positional arguments and its
    groups of options in the order --help lists them."""

    def __init__(self, name: str, help: str, arguments=(), groups=()):
        self.name, self.help = name, _dedent(help)
        self.arguments, self.groups = tuple(arguments), tuple(groups)
        self._opts = None

    def opts(self) -> list[Opt]:
        """Every option, in --help's order (-h/--help last)."""
        if self._opts is None:
            out, seen = [], {}
            for g in self.groups:
                for o in (g.opts() if isinstance(g, Group) else Group(g).opts()):
                    if o.dest in seen:
                        raise ValueError(f"{self.name}: option {o.dest!r} declared twice "
                                         f"({seen[o.dest]} and {o.flags})")
                    seen[o.dest] = o.flags
                    out.append(o)
            self._opts = out
        return self._opts

    def opt(self, dest: str) -> Opt:
        for o in self.opts():
            if o.dest == dest:
                return o
        raise KeyError(dest)

    def summary(self) -> str:
        return self.help.split("\n\n", 1)[0]

    def usage_args(self) -> str:
        return " ".join(["[OPTIONS]", *(a.metavar for a in self.arguments)])


def _dedent(text: str) -> str:
    """A docstring's text without its indentation and outer blank lines
    (as inspect.cleandoc, without importing inspect)."""
    lines = text.expandtabs().split("\n")
    margin = min((len(ln) - len(ln.lstrip()) for ln in lines[1:] if ln.strip()), default=0)
    lines = [lines[0].strip()] + [ln[margin:].rstrip() for ln in lines[1:]]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


# -- help ------------------------------------------------------------------------

MAX_CONTENT_WIDTH = 100     # help is laid out no wider than this


def help_width(columns: int | None = None) -> int:
    """The width help is laid out at: the terminal's columns (COLUMNS if a
    positive integer, else standard output's terminal, else 80) capped at
    MAX_CONTENT_WIDTH, less a margin of 2, at least 50 -- click's rule."""
    if columns is None:
        try:
            columns = int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            columns = 0
        if columns <= 0:
            try:
                columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                columns = 80
            columns = columns or 80
    return max(min(columns, MAX_CONTENT_WIDTH) - 2, 50)


def _wrapper(width: int, initial: str = "", subsequent: str = ""):
    import textwrap

    class _Wrap(textwrap.TextWrapper):
        def _handle_long_word(self, chunks, cur_line, cur_len, width):
            # a word longer than the line is cut at the line's end, hyphens or not
            room = max(width - cur_len, 1)
            if self.break_long_words:
                cur_line.append(chunks[-1][:room])
                chunks[-1] = chunks[-1][room:]
            elif not cur_line:
                cur_line.append(chunks.pop())

    return _Wrap(width, initial_indent=initial, subsequent_indent=subsequent,
                 replace_whitespace=False)


def wrap(text: str, width: int, initial: str = "", subsequent: str = "") -> str:
    """``text`` filled to ``width``, paragraph by paragraph (blank lines
    between them kept; a paragraph whose first line is ``\\b`` kept as it is);
    a paragraph's own indentation adds to ``subsequent``."""
    text = text.expandtabs()
    paragraphs, buf, indent = [], [], None

    def flush():
        if buf:
            if buf[0].strip() == "\b":
                paragraphs.append((indent or 0, True, "\n".join(buf[1:])))
            else:
                paragraphs.append((indent or 0, False, " ".join(buf)))
            buf.clear()

    for line in text.splitlines():
        if not line:
            flush()
            indent = None
            continue
        if indent is None:
            stripped = line.lstrip()
            indent = len(line) - len(stripped)
            line = stripped
        buf.append(line)
    flush()
    out = []
    for extra, raw, par in paragraphs:
        w = _wrapper(width, initial + " " * extra, subsequent + " " * extra)
        if raw:
            out.append("\n".join(w.initial_indent + ln for ln in par.splitlines()))
        else:
            out.append(w.fill(par))
    return "\n\n".join(out)


def definition_list(rows, width: int, indent: int = 2, col_max: int = 30,
                    spacing: int = 2) -> str:
    """Two columns, the second wrapped beside the first; a first column
    wider than ``col_max`` puts its text on the next line."""
    first = min(max((len(a) for a, _ in rows), default=0), col_max) + spacing
    out = []
    for a, b in rows:
        line = " " * indent + a
        if not b:
            out.append(line + "\n")
            continue
        if len(a) <= first - spacing:
            line += " " * (first - len(a))
        else:
            out.append(line + "\n")
            line = " " * (first + indent)
        lines = wrap(b, max(width - first - 2, 10)).splitlines()
        out.append(line + (lines[0] if lines else "") + "\n")
        out += [" " * (first + indent) + ln + "\n" for ln in lines[1:]]
    return "".join(out)


def _usage(prog: str, args: str, width: int) -> str:
    prefix = f"Usage: {prog} "
    if width >= len(prefix) + 20:
        return wrap(args, width, prefix, " " * len(prefix)) + "\n"
    return prefix + "\n" + wrap(args, width, " " * 4, " " * 4) + "\n"


def short_help(text: str, limit: int) -> str:
    """The first sentence of ``text``'s first paragraph if it fits in
    ``limit`` characters, else as many words as fit, then '...'."""
    words = text.split("\n\n", 1)[0].split()
    if words and words[0] == "\b":
        words = words[1:]
    total = 0
    for i, word in enumerate(words):
        total += len(word) + (i > 0)
        if total > limit:
            break
        if word.endswith("."):
            return " ".join(words[:i + 1])
        if total == limit and i != len(words) - 1:
            break
    else:
        return " ".join(words)
    total += 3
    while i > 0:
        total -= len(words[i]) + 1
        if total <= limit:
            break
        i -= 1
    return " ".join(words[:i]) + "..."


def render_help(cmd: Command, width: int | None = None, prog: str = "ipsoeval") -> str:
    """``ipsoeval NAME --help``."""
    width = help_width() if width is None else width
    out = [_usage(f"{prog} {cmd.name}", cmd.usage_args(), width)]
    if cmd.help:
        out.append("\n" + wrap(cmd.help, width, "  ", "  ") + "\n")
    rows = [o.help_record() for o in (*cmd.opts(), HELP_OPT) if o.cli and not o.hidden]
    out.append("\nOptions:\n" + definition_list(rows, width))
    return "".join(out)


def render_group_help(help_text: str, options, commands: dict[str, str],
                      width: int | None = None, prog: str = "ipsoeval") -> str:
    """``ipsoeval --help``: ``options`` (Opt) and ``commands`` {name: help}."""
    width = help_width() if width is None else width
    out = [_usage(prog, "[OPTIONS] COMMAND [ARGS]...", width),
           "\n" + wrap(_dedent(help_text), width, "  ", "  ") + "\n",
           "\nOptions:\n" + definition_list([o.help_record() for o in options], width)]
    limit = width - 6 - max(len(n) for n in commands)
    out.append("\nCommands:\n" + definition_list(
        [(n, short_help(_dedent(h), limit)) for n, h in commands.items()], width))
    return "".join(out)


# -- the fast paths' parser --------------------------------------------------------

def parse(cmd: Command, argv, serve=None) -> dict | None:
    """``argv`` (after the command's name) as the click command reads it:
    {dest: value} for every option (defaults where not given) and every
    argument, or None when the click command would refuse or treat it
    otherwise (an unknown option, a bad value, a missing value, ``--``) or
    when an option outside ``serve`` (a set of dests; None: all) is given --
    the full program then takes the call."""
    by_flag = {}
    for o in cmd.opts():
        if o.cli:
            for f in o.flags:
                by_flag[f] = o
    got = {o.dest: o.empty() for o in cmd.opts() if o.cli}
    given = {}
    positionals = []
    i, n = 0, len(argv)
    while i < n:
        a = argv[i]
        i += 1
        if a == "--" or a == "-":
            if a == "--":
                return None
            positionals.append(a)
            continue
        if not a.startswith("-"):
            positionals.append(a)
            continue
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            o = by_flag.get(name)
            if o is None:
                return None
            if o.kind in ("flag", "count"):
                if eq:
                    return None
                value = None
            elif not eq:
                if i == n:
                    return None
                value, i = argv[i], i + 1
        else:
            o = by_flag.get(a[:2])
            if o is None:
                return None
            if o.kind in ("flag", "count"):
                if len(a) > 2:          # bundled short flags: left to click
                    return None
                value = None
            elif len(a) > 2:
                value = a[2:]
            else:
                if i == n:
                    return None
                value, i = argv[i], i + 1
        if serve is not None and o.dest not in serve:
            return None
        if value is None:
            v = True if o.kind == "flag" else got[o.dest] + 1
        else:
            try:
                v = o.convert(value)
            except ValueError:
                return None
        if o.multiple:
            given.setdefault(o.dest, []).append(v)
        else:
            given[o.dest] = v
    for dest, v in given.items():
        got[dest] = tuple(v) if isinstance(v, list) else v
    for o in cmd.opts():
        if o.cli and o.required and o.dest not in given:
            return None
    k = 0
    for arg in cmd.arguments:
        if arg.many:
            rest = cmd.arguments[cmd.arguments.index(arg) + 1:]
            take = max(len(positionals) - k - len(rest), 0)
            if arg.required and take == 0:
                return None
            got[arg.dest] = tuple(positionals[k:k + take])
            k += take
        else:
            if k >= len(positionals):
                if arg.required:
                    return None
                got[arg.dest] = None
                continue
            got[arg.dest] = positionals[k]
            k += 1
    if k != len(positionals):
        return None
    return got


# -- the Python API --------------------------------------------------------------

def api_opts(cmd: Command) -> list[Opt]:
    return [o for o in cmd.opts() if o.api]


def api_signature(cmd: Command, first: tuple = ("res",)):
    """The API function's signature: its positional parameters ``first``
    (a name, or (name, default)), then every option the API takes as a
    keyword-only parameter with its default."""
    import inspect
    params = [inspect.Parameter(p[0], inspect.Parameter.POSITIONAL_OR_KEYWORD, default=p[1])
              if isinstance(p, tuple) else
              inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in first]
    for o in api_opts(cmd):
        params.append(inspect.Parameter(o.keyword, inspect.Parameter.KEYWORD_ONLY,
                                        default=o.api_empty()))
    return inspect.Signature(params)


def api_doc(cmd: Command, lead: str) -> str:
    """The API function's docstring: ``lead``, then one entry per keyword,
    its help text and the command-line option it is."""
    lines = [_dedent(lead), "", "Keyword arguments (each is a command-line option of "
             f"``ipsoeval {cmd.name}``):", ""]
    for o in api_opts(cmd):
        if o.api_default is not MISSING:      # the API's own default, not the command line's
            o = o.replace(default=o.api_default, default_text=None if o.api_default is None
                          else str(o.api_default))
        text = o.help_record()[1]
        if o.flags:
            lines.append(f"``{o.keyword}`` ({max(o.flags, key=len)})")
        else:               # the API's own keyword: no command-line spelling
            lines.append(f"``{o.keyword}``")
        lines.append("    " + text)
    return "\n".join(lines) + "\n"


def api_kwargs(cmd: Command, kw: dict, func: str) -> dict:
    """``kw`` checked against the declaration: an unknown keyword is a
    TypeError naming it, as Python says for a real signature."""
    known = {o.keyword for o in api_opts(cmd)}
    bad = [k for k in kw if k not in known]
    if bad:
        raise TypeError(f"{func}() got an unexpected keyword argument {bad[0]!r}")
    return kw


# -- the man page ----------------------------------------------------------------

def _roff(text: str) -> str:
    return text.replace("\\", "\\e").replace("-", "\\-")


def man_synopsis(cmd: Command) -> str:
    """The man page's SYNOPSIS section (roff, without its ``.SH`` line): the
    command, its arguments, then every option the command line takes with its
    value, in --help's order -- generated, so that it cannot drift."""
    lines = [f".B ipsoeval {cmd.name}"]
    for a in cmd.arguments:
        # an optional argument's usage may carry its own brackets ([RUN...])
        bare = a.metavar[1:-1] if a.metavar[:1] + a.metavar[-1:] == "[]" else a.metavar
        lines.append(f".I {a.metavar}" if a.required else f".RI [ {bare} ]")
    for o in cmd.opts():
        if not o.cli or o.hidden:
            continue
        flag = _roff(max(o.flags, key=len))
        more = "..." if o.multiple else ""
        if o.required:          # no brackets: the command line needs it
            lines += [f".B {flag}"] + ([] if o.kind in ("flag", "count") else
                                        [f'.I "{_roff(_man_metavar(o))}"{more}'])
        elif o.kind in ("flag", "count"):
            lines.append(f".RB [ {flag} ]{more}")
        else:
            lines += [f".RB [ {flag}", f'.IR "{_roff(_man_metavar(o))}" ]{more}']
    return "\n".join(lines) + "\n"


def _man_metavar(o: Opt) -> str:
    if o.metavar is not None:
        return o.metavar
    if o.kind == "choice":
        return "|".join(o.choices)
    return {"int": "N", "float": "X"}.get(o.kind, "TEXT")


def man_options(cmd: Command) -> list[str]:
    """Every spelling the OPTIONS section must name."""
    return [f for o in cmd.opts() if o.cli for f in o.flags]
