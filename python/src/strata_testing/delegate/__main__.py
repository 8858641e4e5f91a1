"""`python -m strata_testing.delegate POLICY.py`: a policy file as Strata's delegate."""

import argparse
import logging
import sys
from typing import Optional, Sequence

from . import load
from ..control import StrataError


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m strata_testing.delegate",
        description="Run a policy file as Strata's policy delegate until Strata goes.")
    parser.add_argument("policy", help="a python file defining a Delegate subclass, `delegate = …`, "
                                       "or functions decorated with @strata.key_policy / @strata.decide(…)")
    parser.add_argument("--socket", help="Strata's control socket (default: $STRATA_SOCKET)")
    parser.add_argument("--deadline-ms", type=int, help="how long Strata waits for an answer (1…10000; "
                                                        "Strata's default: 50)")
    parser.add_argument("--verbose", "-v", action="store_true", help="log every question and answer")
    options = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="strata delegate %(process)d: %(levelname)s: %(message)s")
    try:
        delegate = load(options.policy)
    except Exception as error:  # noqa: BLE001 — any error of the policy file is reported in words
        print(f"strata delegate: cannot load {options.policy}: {error}", file=sys.stderr)
        return 2
    try:
        delegate.run(options.socket, options.deadline_ms, options.verbose)
    except (OSError, ValueError) as error:
        print(f"strata delegate: {error}", file=sys.stderr)
        return 1
    except StrataError as error:
        print(f"strata delegate: Strata refused the registration: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
