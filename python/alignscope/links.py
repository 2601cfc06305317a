"""Word links as sets of (source, target) positions: Pharaoh lines, gold lines with sure and
possible links, and grow-diag-final-and. No PyTorch here: scripts/fast_align_baseline.py, a
standard-library reimplementation of fast_align, symmetrises with this same code."""

from typing import Iterable, List, Set, Tuple

Link = Tuple[int, int]  # (source position, target position), 0-based


NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def grow_diag_final_and(forward: Set[Link], reverse: Set[Link]) -> Set[Link]:
    """Koehn et al. (2003)'s symmetrisation as fast_align's atools does it: the intersection, grown
    over the 8 neighbours by union links one of whose words is unaligned (passes in (i, j) order
    until nothing changes), then forward and reverse links whose two words are both unaligned."""
    union = forward | reverse
    result = forward & reverse
    src_aligned = {i for i, _ in result}
    tgt_aligned = {j for _, j in result}

    def add(i: int, j: int) -> None:
        result.add((i, j))
        src_aligned.add(i)
        tgt_aligned.add(j)

    pending = sorted(union - result)
    grew = bool(pending)
    while grew:
        grew = False
        added = []
        for i, j in pending:
            if not (i in src_aligned and j in tgt_aligned) and any(
                    (i + di, j + dj) in result for di, dj in NEIGHBOURS):
                add(i, j)
                added.append((i, j))
                grew = True
        if added:
            done = set(added)
            pending = [x for x in pending if x not in done]
    for side in (forward, reverse):
        for i, j in sorted(side):
            if (i, j) not in result and i not in src_aligned and j not in tgt_aligned:
                add(i, j)
    return result


def pharaoh(links: Iterable[Link]) -> str:
    """Links as a Pharaoh line: `i-j` pairs, source first, sorted."""
    return " ".join(f"{i}-{j}" for i, j in sorted(links))


def parse_pharaoh(line: str) -> List[Link]:
    """A Pharaoh or gold line -> its links (possible ones taken as links), sorted."""
    sure, possible = parse_gold(line)
    return sorted(sure | possible)


def parse_gold(line: str) -> Tuple[Set[Link], Set[Link]]:
    """A gold line (`i-j` sure, `ipj` or `i?j` possible) -> (sure, possible-only); a link given both
    ways is sure."""
    sure: Set[Link] = set()
    possible: Set[Link] = set()
    for item in line.split():
        for sep, target in (("-", sure), ("p", possible), ("?", possible)):
            if sep in item:
                a, b = item.split(sep, 1)
                target.add((int(a), int(b)))
                break
        else:
            raise ValueError(f"'{item}' is not a gold link (i-j, ipj or i?j)")
    return sure, possible - sure


def format_gold(sure: Iterable[Link], possible: Iterable[Link]) -> str:
    """(sure, possible-only) -> a gold line, links in (source, target) order."""
    items = [(i, j, "-") for i, j in sure] + [(i, j, "p") for i, j in set(possible) - set(sure)]
    return " ".join(f"{i}{sep}{j}" for i, j, sep in sorted(items))
