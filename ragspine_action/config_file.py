"""``ragspine-eval.yml``: the settings a team would otherwise repeat in every workflow.

Validated by a pydantic model (published as ``schema/config.schema.json`` so editors can
complete it). Unknown keys and wrong types are errors naming the key path. Relative
paths are relative to the file's own directory. CLI flags override the file.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from .config_names import DEFAULT_CONFIG_NAME, FILE_KEYS
from .errors import InputError, Problem
from .jsonio import read_text_file
from .validation import problems_from_validation_error

if TYPE_CHECKING:
    import yaml

__all__ = [
    "DEFAULT_CONFIG_NAME",
    "FILE_KEYS",
    "ConfigFile",
    "file_origin",
    "load_config_file",
    "overrides_from_file",
    "parse_config_text",
]

Share = Annotated[float, Field(ge=0.0, le=1.0)]
PositiveInt = Annotated[int, Field(ge=1)]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class RetrievalSettings(_Section):
    k: list[PositiveInt] | None = None
    protected_k: PositiveInt | None = None
    relevance_level: PositiveInt | None = None


class JudgeSettings(_Section):
    kind: str | None = None  # lexical (the default); checked against the judges there are
    faithfulness_threshold: Share | None = None
    answer_accuracy_threshold: Share | None = None
    # Regexes of meta/template text that is not a claim (replace the defaults).
    meta_patterns: list[str] | None = None
    # Also accepted at the top level (``reference_texts:``), where RAGSpine users look.
    reference_texts: str | None = None
    # kind: llm — an OpenAI-compatible chat-completions endpoint (docs/judges.md).
    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None  # the variable's name; the key is never in the file
    cache: str | None = None  # SQLite verdict cache
    cache_only: bool | None = None
    concurrency: PositiveInt | None = None
    timeout: Annotated[float, Field(gt=0, strict=False)] | None = None
    retries: Annotated[int, Field(ge=0)] | None = None
    max_error_rate: Annotated[float, Field(ge=0, le=1, strict=False)] | None = None
    veto: bool | None = None  # the number and negation rules overrule "supported"


class FabricationSettings(_Section):
    period_patterns: list[str] | None = None


class HttpFileSettings(_Section):
    endpoint: str | None = None
    headers_file: str | None = None
    concurrency: PositiveInt | None = None
    timeout_s: Annotated[float, Field(gt=0, strict=False)] | None = None
    retries: Annotated[int, Field(ge=0)] | None = None
    rate_limit: Annotated[float, Field(gt=0, strict=False)] | None = None
    max_response_bytes: PositiveInt | None = None
    max_error_rate: Annotated[float, Field(ge=0, le=1, strict=False)] | None = None


class ExtractionFileSettings(_Section):
    manifest: str | None = None
    abs_tol: Annotated[float, Field(ge=0, strict=False)] | None = None
    rel_tol: Annotated[float, Field(ge=0, strict=False)] | None = None
    tags_as_set: bool | None = None
    spans_as_ranges: bool | None = None


class GateSettingsFile(_Section):
    """Which metrics gate against the baseline, and absolute floors that always apply."""

    metrics: Literal["all"] | list[str] = "all"
    floors: dict[str, Annotated[float, Field(ge=0, strict=False)]] = {}
    mode: Literal["exact", "significant"] | None = None
    alpha: Annotated[float, Field(gt=0, lt=1, strict=False)] | None = None
    tolerance: Annotated[float, Field(ge=0, le=1, strict=False)] | None = None


class BootstrapSettings(_Section):
    resamples: Annotated[int, Field(ge=0)] | None = None
    seed: int | None = None


class ConfigFile(_Section):
    """The whole file; every section optional."""

    suites: Literal["qa", "extraction", "all"] | list[Literal["qa", "extraction"]] | None = None
    system: Literal["reference", "outcomes", "http"] | None = None
    mode: str | None = None
    golden: str | None = None
    outcomes: str | None = None
    baseline: str | None = None
    report: str | None = None
    kb_dir: str | None = None
    reference_texts: str | None = None
    repeats: PositiveInt | None = None
    # Share of cases that may end in an error, for every system (http.max_error_rate is
    # the same setting, kept where the http system's settings are).
    max_error_rate: Annotated[float, Field(ge=0, le=1, strict=False)] | None = None
    retrieval: RetrievalSettings = RetrievalSettings()
    judge: JudgeSettings = JudgeSettings()
    fabrication: FabricationSettings = FabricationSettings()
    http: HttpFileSettings = HttpFileSettings()
    extraction: ExtractionFileSettings = ExtractionFileSettings()
    gate: GateSettingsFile = GateSettingsFile()
    bootstrap: BootstrapSettings = BootstrapSettings()
    # The line of every key path (list items as "[i]"): errors found after loading (a
    # floor naming no metric of the run) point at the line like the loader's own do.
    _lines: dict[tuple[str, ...], int] = PrivateAttr(default_factory=dict)

    def line_of(self, *key: str) -> int | None:
        """The file line of a key path (``line_of("gate", "floors", "mrr")``), if known."""
        return self._lines.get(key)


@cache
def _line_loader() -> type[yaml.SafeLoader]:
    """SafeLoader for settings files; yaml is imported only when a settings file is read."""
    import yaml

    class LineLoader(yaml.SafeLoader):
        """SafeLoader whose nodes keep their lines (for error messages)."""

    return LineLoader


def _node_lines(root: yaml.Node) -> dict[tuple[str, ...], int]:
    """Key path → line for every mapping key and list item (``("gate", "metrics", "[1]")``).

    Iterative; aliases expanded (``_check_yaml_tree`` bounded the expanded size).
    """
    import yaml

    lines: dict[tuple[str, ...], int] = {}
    stack: list[tuple[yaml.Node, tuple[str, ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = (*path, str(key.value))
                lines.setdefault(name, key.start_mark.line + 1)
                stack.append((value, name))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                name = (*path, f"[{index}]")
                lines.setdefault(name, item.start_mark.line + 1)
                stack.append((item, name))
    return lines


#: A settings file is a few dozen keys: these bounds only stop hostile documents (an
#: alias "billion laughs" expands 450 bytes into billions of nodes; deep nesting
#: exhausts the parser's recursion).
MAX_YAML_NODES = 10_000
MAX_YAML_DEPTH = 32
MAX_CONFIG_BYTES = 4 * 1024 * 1024


def _check_yaml_tree(root: yaml.Node, name: str) -> None:
    """Refuse duplicate keys, and documents too large or deep once aliases are expanded.

    Sizes are computed on the composed graph, where an alias is a shared node, so the
    check itself stays linear in the file however much the aliases would expand.
    """
    import yaml

    sizes: dict[int, int] = {}
    # Post-order walk without recursion: (node, depth, children done?).
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if depth > MAX_YAML_DEPTH:
            raise InputError.single(
                name,
                f"invalid YAML: nested deeper than {MAX_YAML_DEPTH} levels",
                line=node.start_mark.line + 1,
            )
        children: list[yaml.Node] = []
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                    line = key.start_mark.line + 1
                    if str(key.value) in seen:
                        first = seen[str(key.value)]
                        raise InputError.single(
                            name,
                            f"duplicate key {str(key.value)[:60]!r} (first on line {first})",
                            line=line,
                        )
                    seen[str(key.value)] = line
                children += [key, value]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        if id(node) in sizes:
            continue
        if not done and children:
            stack.append((node, depth, True))
            stack.extend((c, depth + 1, False) for c in children if id(c) not in sizes)
            continue
        total = 1 + sum(sizes.get(id(c), 1) for c in children)
        sizes[id(node)] = min(total, MAX_YAML_NODES + 1)
        if total > MAX_YAML_NODES:
            raise InputError.single(
                name,
                f"invalid YAML: more than {MAX_YAML_NODES} values once aliases are expanded "
                "(an alias bomb?)",
                line=node.start_mark.line + 1,
            )


def parse_config_text(text: str, name: str) -> ConfigFile:
    """Parse and validate settings text (the run and the baseline guard use this alike)."""
    text = text.removeprefix("\ufeff")
    import yaml

    loader = _line_loader()(text)
    lines: dict[tuple[str, ...], int] = {}
    try:
        root = loader.get_single_node()
        if root is not None:
            _check_yaml_tree(root, name)
            lines = _node_lines(root)
        data: Any = loader.construct_document(root) if root is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError.single(name, f"invalid YAML: {problem}", line=line) from None
    except RecursionError:
        raise InputError.single(name, "invalid YAML: nested too deeply") from None
    finally:
        loader.dispose()
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError.single(name, f"expected a mapping of settings, got {type(data).__name__}")
    try:
        config = ConfigFile.model_validate(data)
    except ValidationError as exc:
        key_lines = lines
        problems: list[Problem] = []
        for problem in problems_from_validation_error(exc, name, None, None, echo=False):
            key = tuple((problem.field or "").replace("[", ".[").split("."))
            line = next(
                (key_lines[key[:n]] for n in range(len(key), 0, -1) if key[:n] in key_lines), None
            )
            problems.append(Problem(name, line, problem.field, problem.message))
        raise InputError(problems) from None
    config._lines = lines
    return config


def file_origin(config: ConfigFile, path: str | os.PathLike[str], key: str) -> str:
    """``ragspine-eval.yml:12: gate.floors.mrr``: where a setting of the file is (the
    line when the key is in the file; ``key`` is dotted, a list item ``name[i]``)."""
    parts = tuple(key.replace("[", ".[").split("."))
    line = config.line_of(*parts)
    return f"{path}:{line}: {key}" if line is not None else f"{path}: {key}"


def load_config_file(path: str | os.PathLike[str]) -> ConfigFile:
    """Parse and validate the YAML file; every problem names its key path (and line)."""
    return parse_config_text(read_text_file(path, max_bytes=MAX_CONFIG_BYTES), str(path))


def _path(value: str | None, base: Path) -> str | None:
    if value is None:
        return None
    return value if os.path.isabs(value) else str(base / value)


def overrides_from_file(config: ConfigFile, path: str | os.PathLike[str]) -> dict[str, Any]:
    """RunConfig field → value for everything the file sets (paths made absolute)."""
    base = Path(path).resolve().parent
    out: dict[str, Any] = {}
    if config.suites is not None:
        out["suites"] = (
            ("qa", "extraction")
            if config.suites == "all"
            else tuple(config.suites)
            if isinstance(config.suites, list)
            else (config.suites,)
        )
    for name in ("system", "mode"):
        value = getattr(config, name)
        if value is not None:
            out[name] = value
    for name in ("golden", "outcomes", "baseline", "report", "kb_dir", "reference_texts"):
        value = _path(getattr(config, name), base)
        if value is not None:
            out[name] = value
    if config.judge.reference_texts is not None:
        if config.reference_texts is not None:
            raise InputError.single(
                str(path),
                "reference_texts is given twice (top level and judge.reference_texts): keep one",
                field="judge.reference_texts",
            )
        out["reference_texts"] = _path(config.judge.reference_texts, base)
    r = config.retrieval
    if r.k is not None:
        out["ks"] = tuple(sorted(set(r.k)))
    if r.protected_k is not None:
        out["protected_k"] = r.protected_k
    if r.relevance_level is not None:
        out["relevance_level"] = r.relevance_level
    for name in ("faithfulness_threshold", "answer_accuracy_threshold"):
        if (value := getattr(config.judge, name)) is not None:
            out[name] = value
    if config.judge.kind is not None:
        out["judge"] = config.judge.kind
    j = config.judge
    for name, field_name in (
        ("base_url", "judge_url"),
        ("model", "judge_model"),
        ("api_key_env", "judge_api_key_env"),
        ("cache_only", "judge_cache_only"),
        ("concurrency", "judge_concurrency"),
        ("timeout", "judge_timeout_s"),
        ("retries", "judge_retries"),
        ("max_error_rate", "judge_max_error_rate"),
        ("veto", "judge_veto"),
    ):
        if (value := getattr(j, name)) is not None:
            out[field_name] = value
    if j.cache is not None:
        out["judge_cache"] = _path(j.cache, base)
    if config.judge.meta_patterns is not None:
        out["meta_patterns"] = tuple(config.judge.meta_patterns)
    if config.fabrication.period_patterns is not None:
        out["period_patterns"] = tuple(config.fabrication.period_patterns)
    h = config.http
    for name in ("endpoint", "concurrency", "timeout_s", "retries", "rate_limit"):
        if (value := getattr(h, name)) is not None:
            out[name] = value
    if h.max_response_bytes is not None:
        out["max_response_bytes"] = h.max_response_bytes
    if h.max_error_rate is not None and config.max_error_rate is not None:
        raise InputError.single(
            str(path),
            "max_error_rate and http.max_error_rate: the same setting twice; keep one",
            field="max_error_rate",
        )
    if h.max_error_rate is not None:
        out["max_error_rate"] = h.max_error_rate
    if config.max_error_rate is not None:
        out["max_error_rate"] = config.max_error_rate
    if h.headers_file is not None:
        out["headers_file"] = _path(h.headers_file, base)
    e = config.extraction
    if e.manifest is not None:
        out["extraction_manifest"] = _path(e.manifest, base)
    for name in ("abs_tol", "rel_tol", "tags_as_set", "spans_as_ranges"):
        if (value := getattr(e, name)) is not None:
            out[f"extraction_{name}"] = value
    if config.gate.metrics != "all":
        out["gated_metrics"] = tuple(config.gate.metrics)
    if config.gate.floors:
        out["floors"] = dict(config.gate.floors)
    for name in ("mode", "alpha", "tolerance"):
        if (value := getattr(config.gate, name)) is not None:
            out[f"gate_{name}"] = value
    if config.repeats is not None:
        out["repeats"] = config.repeats
    if config.bootstrap.resamples is not None:
        out["bootstrap_resamples"] = config.bootstrap.resamples
    if config.bootstrap.seed is not None:
        out["bootstrap_seed"] = config.bootstrap.seed
    return out
