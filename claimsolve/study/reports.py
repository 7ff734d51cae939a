"""`study report`: a study's results, finished or not, as text, JSON and
SVG charts (matplotlib, the `charts` extra)."""
import datetime
import os

from .. import limits
from ..errors import ClaimsolveError
from ..files import problem
from ..words import counted
from .kinds import get_kind


def build(store, anchor=None, name="parameter 'anchor'"):
    """{"summary": {...}, "text": "..."} of an open Store; a ladder's
    ratings with the spec `anchor` at 0 when given (else the ladder's own
    anchor), `name` naming it in a refusal."""
    kind = get_kind(store.kind)
    params = store.params
    total = len(kind.task_ids(params))
    rows = store.rows(kind.json_columns)
    summary = kind.summary(_anchored(store, params, anchor, name), rows, total)
    runs = store.runs()
    decision = store.meta("decision")
    status = _status(len(rows), total, decision, runs)
    summary["study"] = {"file": store.path, "kind": store.kind, "params": params, "done": len(rows),
                        "total": total, "status": status, "decision": decision,
                        "runs": [{key: run[key] for key in ("run", "status", "runner", "todo", "completed")}
                                 | {"started": _when(run["started"]), "ended": _when(run["ended"])}
                                 for run in runs]}
    return {"summary": summary, "text": _progress_line(summary["study"]) + "\n" + kind.text(summary),
            "rows": rows}


def _anchored(store, params, anchor, name):
    """The study's parameters with a ladder's anchor set to `anchor` (None:
    the ladder's own): the anchor only sets the ratings' zero, so the same
    games are rated with another spec held at 0.  Refused for a study that
    is not a ladder, and for a spec that is not one of the ladder's."""
    if anchor is None:
        return params
    if store.kind != "ladder":
        raise ClaimsolveError(f"{limits.label(name)}: a {store.kind} study has no ratings to anchor "
                              "(only a ladder's report takes it)", store.path)
    spec = anchor.strip() if isinstance(anchor, str) else anchor
    if spec not in params["specs"]:
        raise ClaimsolveError(f"{limits.label(name)}: {limits.quoted(str(anchor))} is not one of the ladder's "
                              f"specs ({', '.join(params['specs'])})", store.path)
    return dict(params, anchor=spec)


def _status(done, total, decision, runs):
    if decision is not None:
        return "decided"
    if done >= total:
        return "finished"
    if runs and runs[-1]["status"] == "running":
        return "running or stopped"      # a run is writing, or was killed (kill -9) before it could say so
    return "unfinished"


def _progress_line(info):
    done, total = info["done"], info["total"]
    runs = info["runs"]
    ran = counted(len(runs), "run")
    if info["status"] == "finished":
        return f"Study {info['file']}: finished, {total:,} of {counted(total, 'task')} ({ran})."
    if info["status"] == "decided":
        d = info["decision"]
        first = d.get("first_at")
        when = ("" if first is None or first == d.get("games", done) else
                f"; read in the games' order, it had decided after game {first:,}: it is read as each "
                "batch of games comes back")
        return (f"Study {info['file']}: the SPRT decided {d['decision']} after {counted(d.get('games', done), 'game')} "
                f"({done:,} of at most {total:,} played, {ran}{when}).")
    last = runs[-1]["status"] if runs else "none"
    how = {"interrupted": "the last run was interrupted", "running": "a run is going on or was killed",
           "failed": "the last run failed", "none": "not run yet"}.get(last, f"the last run {last}")
    share = 100 * done / total if total else 0
    return (f"Study {info['file']}: UNFINISHED, {done:,} of {counted(total, 'task')} done "
            f"({share:.1f}%; {how}; {ran}). "
            "Run the same study command again to continue it.")


def _when(stamp):
    if stamp is None:
        return None
    return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).isoformat(timespec="seconds")


def write_charts(result, folder):
    """The study's SVG charts in `folder` (made if missing, never its
    parents, as no output file's folder is): their paths.  A chart rewrites
    a picture of the same name there, never another file (charts._save)."""
    try:
        import matplotlib  # noqa: F401  (deferred: an extra; its absence is told in one line)
    except ImportError:
        raise ClaimsolveError("option '--svg': charts need matplotlib: pip install \"claimsolve[charts]\"") from None
    if not os.path.isdir(folder):
        try:
            os.mkdir(folder)
        except FileExistsError:
            if not os.path.isdir(folder):
                raise ClaimsolveError("option '--svg': is not a folder; the charts go in a folder "
                                      "(give a folder's name)", folder) from None
        except OSError as exc:
            raise ClaimsolveError(f"option '--svg': cannot make the folder: {problem(exc, folder)}", folder) from None
    summary = result["summary"]
    return get_kind(summary["study"]["kind"]).charts(summary, result["rows"], folder)
