"""Tests for the static bash reader (translator.sources.shell)."""

from __future__ import annotations

from pathlib import Path

import pytest

from translator.api import explain
from translator.errors import ConfigError
from translator.sources.shell import (
    BRANCH,
    ShellCommand,
    ShellScript,
    parse_shell,
    symbolic_names,
    unwrap_command,
)


def argvs(script: ShellScript) -> list[list[str]]:
    return [c.argv for c in script.commands]


def codes(script: ShellScript) -> list[str]:
    return [n.code for n in script.notes]


def only(script: ShellScript) -> ShellCommand:
    assert len(script.commands) == 1, argvs(script)
    return script.commands[0]


VERL = r"""#!/usr/bin/env bash
set -x
export VLLM_ATTENTION_BACKEND=XFORMERS

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files="['/p/a.parquet', '/p/b.parquet']" \
    data.train_batch_size=1024 \
    actor_rollout_ref.model.path=$MODEL_PATH \
    actor_rollout_ref.actor.optim.lr=1e-6 \
    actor_rollout_ref.rollout.n=5 \
    trainer.logger='["console","wandb"]' \
    trainer.project_name=verl_grpo \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1 \
    $@ 2>&1 | tee log.txt
"""


# --- a whole verl-style script ----------------------------------------------------------------------------


def test_verl_script() -> None:
    script = parse_shell(VERL, source="run.sh")
    assert argvs(script) == [
        ["set", "-x"],
        [
            "python3",
            "-m",
            "verl.trainer.main_ppo",
            "algorithm.adv_estimator=grpo",
            "data.train_files=['/p/a.parquet', '/p/b.parquet']",
            "data.train_batch_size=1024",
            "actor_rollout_ref.model.path=${MODEL_PATH}",
            "actor_rollout_ref.actor.optim.lr=1e-6",
            "actor_rollout_ref.rollout.n=5",
            'trainer.logger=["console","wandb"]',
            "trainer.project_name=verl_grpo",
            "trainer.n_gpus_per_node=8",
            "trainer.nnodes=1",
        ],
        ["tee", "log.txt"],
    ]
    python = script.commands[1]
    assert python.line == 5
    assert python.unresolved == ["MODEL_PATH"]
    assert script.commands[2].line == 16
    assert script.variables["VLLM_ATTENTION_BACKEND"] == "XFORMERS"
    assert "shell.positional-args" in codes(script)


def test_verl_script_with_env_fills_model_path() -> None:
    script = parse_shell(VERL, env={"MODEL_PATH": "/models/q"})
    assert "actor_rollout_ref.model.path=/models/q" in script.commands[1].argv
    assert script.commands[1].unresolved == []


# --- lines, comments, quoting ------------------------------------------------------------------------------


def test_continuations_comments_and_blank_lines() -> None:
    script = parse_shell("# header\n\necho a \\\n  b#c # trailing comment\n\n  # indented\necho d\n")
    assert argvs(script) == [["echo", "a", "b#c"], ["echo", "d"]]
    assert [c.line for c in script.commands] == [3, 7]


def test_backslash_newline_inside_a_word_joins() -> None:
    assert argvs(parse_shell("echo ab\\\ncd\n")) == [["echo", "abcd"]]


def test_adjacent_quoted_parts_form_one_word() -> None:
    script = parse_shell("a=\"x\"'y'z\necho \"$a\"'$a'$a\n")
    assert script.variables["a"] == "xyz"
    assert argvs(script) == [["echo", "xyz$axyz"]]


def test_double_quote_escapes_and_single_quotes_literal() -> None:
    script = parse_shell(r"""X=1
echo "a\"b" "c\\d" "\$X" "\n" 'e\$X' f\ g \$X
""")
    assert argvs(script) == [["echo", 'a"b', "c\\d", "$X", "\\n", "e\\$X", "f g", "$X"]]


def test_word_splitting_of_unquoted_expansions_only() -> None:
    script = parse_shell('ARGS="--a 1  --b 2"\nrun $ARGS "$ARGS" x$ARGS\n')
    assert argvs(script) == [["run", "--a", "1", "--b", "2", "--a 1  --b 2", "x--a", "1", "--b", "2"]]


def test_empty_expansions() -> None:
    script = parse_shell('E=\nrun $E "$E" "" ${E}x\n')
    assert argvs(script) == [["run", "", "", "x"]]
    assert only(script).unresolved == []  # E is set (to empty), not missing


def test_ansi_c_quoting() -> None:
    assert argvs(parse_shell("echo $'a\\tb'\n")) == [["echo", "a\tb"]]


# --- assignments -------------------------------------------------------------------------------------------


def test_assignments_export_local_declare_readonly() -> None:
    script = parse_shell("A=1\nexport B=$A C\nexport A\nlocal D=4\ndeclare -x E=5 -r\nreadonly F=6\ntypeset G=7\n")
    assert script.variables == {"A": "1", "B": "1", "D": "4", "E": "5", "F": "6", "G": "7"}
    assert script.commands == []


def test_export_keeps_value_supplied_by_env() -> None:
    script = parse_shell("export HOME\necho $HOME\n", env={"HOME": "/home/me"})
    assert argvs(script) == [["echo", "/home/me"]]


def test_prefix_assignments_are_not_kept() -> None:
    script = parse_shell(
        "GPUS=0,1\nCUDA_VISIBLE_DEVICES=$GPUS OMP_NUM_THREADS=4 python train.py\necho $OMP_NUM_THREADS\n"
    )
    cmd = script.commands[0]
    assert cmd.argv == ["python", "train.py"]
    assert cmd.assignments == {"CUDA_VISIBLE_DEVICES": "0,1", "OMP_NUM_THREADS": "4"}
    assert "CUDA_VISIBLE_DEVICES" not in script.variables
    assert script.commands[1].argv == ["echo", "${OMP_NUM_THREADS}"]  # unset: kept symbolic
    assert script.commands[1].unresolved == ["OMP_NUM_THREADS"]


def test_arrays_keep_their_elements() -> None:
    # bash: A holds 3 elements (x, 'y z', w); unquoted ${A[@]} and ${A[1]} split again, "${A[@]}" does not.
    script = parse_shell('A=(x "y z")\nA+=(w)\necho ${A[@]} ${A[1]} ${#A[@]}\necho "${A[@]}" "<${A[@]}>"\n')
    assert script.variables["A"] == "x y z w"
    assert argvs(script) == [["echo", "x", "y", "z", "w", "y", "z", "3"], ["echo", "x", "y z", "w", "<x", "y z", "w>"]]


def test_multi_line_array_of_flags_expands_to_one_word_each() -> None:
    script = parse_shell(
        'ARGS=(\n  --actor_num_nodes 2  # two nodes\n  --prompt_data "a.jsonl,b.jsonl"\n)\n'
        'python3 -m openrlhf.cli.train_ppo_ray "${ARGS[@]}"\n'
    )
    assert only(script).argv[3:] == ["--actor_num_nodes", "2", "--prompt_data", "a.jsonl,b.jsonl"]


def test_kept_command_substitution_stays_one_word_when_a_variable_carries_it() -> None:
    # $(date +%Y%m%d) is not run; its result would be one word, so the kept text must not split at its blank.
    script = parse_shell("NOW=$(date +%Y%m%d)\necho name=run-$NOW x\n")
    assert argvs(script) == [["echo", "name=run-$(date +%Y%m%d)", "x"]]


def test_unset_removes_variable() -> None:
    script = parse_shell("A=1\nunset A\necho $A\n")
    assert "A" not in script.variables
    assert only(script).unresolved == ["A"]


def test_script_assignment_overrides_env() -> None:
    script = parse_shell("NNODES=1\necho $NNODES\n", env={"NNODES": "4"})
    assert argvs(script) == [["echo", "1"]]
    assert script.variables["NNODES"] == "1"


# --- expansion ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("env, expected", [(None, "2"), ({"NNODES": "4"}, "4"), ({"NNODES": ""}, "2")])
def test_default_with_and_without_env(env: dict[str, str] | None, expected: str) -> None:
    script = parse_shell("NNODES=${NNODES:-2}\necho nodes=$NNODES\n", env=env)
    assert script.variables["NNODES"] == expected
    assert argvs(script) == [["echo", f"nodes={expected}"]]
    assert only(script).unresolved == []


def test_parameter_operators() -> None:
    script = parse_shell(
        'E=\nS=set\necho ${E-d1} ${E:-d2} ${U-d3} ${S:+alt} ${U:+alt} "${E:+alt}" ${A:=assigned} ${#S}\necho $A ${A}\n'
    )
    assert argvs(script) == [["echo", "d2", "d3", "alt", "", "assigned", "3"], ["echo", "assigned", "assigned"]]
    assert script.variables["A"] == "assigned"
    assert script.commands[0].unresolved == []


@pytest.mark.parametrize(("env", "expected"), [(None, "${N}"), ({"N": "4"}, "4"), ({"M": "2"}, "2"), ({"N": ""}, "")])
def test_a_quoted_word_of_a_variable_left_empty_to_the_environment_is_unknown(
    env: dict[str, str] | None, expected: str
) -> None:
    # N="${N:-${M:-}}": the script gives N no value of its own (the empty default), so a program's "$N" is N, unknown
    # unless --env gives N or M (an N given empty is empty); the test command still sees the empty string bash would
    # give it, and an unquoted $N (a list of words that may be empty) is left as bash splits it.
    script = parse_shell('N="${N:-${M:-}}"\n[ -n "$N" ]\npython3 train.py --gpus "$N" $N --seed 1\n', env=env)
    test, launch = script.commands
    assert test.argv == ["[", "-n", "" if expected == "${N}" else expected, "]"]
    assert launch.argv[:4] == ["python3", "train.py", "--gpus", expected]
    assert launch.argv[-2:] == ["--seed", "1"] and ("N" in launch.unresolved) == (expected == "${N}")


def test_nested_defaults() -> None:
    assert argvs(parse_shell("echo ${A:-${B:-3}}\n")) == [["echo", "3"]]
    assert argvs(parse_shell("echo ${A:-${B:-3}}\n", env={"B": "7"})) == [["echo", "7"]]
    assert argvs(parse_shell('echo ${A:-"x y"} ${A:-x y}\n')) == [["echo", "x y", "x", "y"]]


def test_pattern_removal_and_case() -> None:
    script = parse_shell("M=/models/Qwen/Qwen2.5-7B\necho ${M##*/} ${M%/*} ${M#/} ${M,,} ${M/Qwen/q}\n")
    assert argvs(script) == [
        [
            "echo",
            "Qwen2.5-7B",
            "/models/Qwen",
            "models/Qwen/Qwen2.5-7B",
            "/models/qwen/qwen2.5-7b",
            "/models/q/Qwen2.5-7B",
        ]
    ]


def test_arithmetic() -> None:
    script = parse_shell(
        "NNODES=${NNODES:-2}\nGPUS=8\nWORLD=$((NNODES * GPUS))\n"
        "echo $(( $WORLD / 3 )) $((-7 / 2)) $((7 % 3)) $(((1 + 2) * 4)) $((2**10)) $((WORLD-1))\n"
    )
    assert script.variables["WORLD"] == "16"
    assert argvs(script) == [["echo", "5", "-3", "1", "12", "1024", "15"]]
    assert parse_shell("W=$((NNODES * 8))\n", env={"NNODES": "4"}).variables["W"] == "32"


def test_arithmetic_with_unknown_name_keeps_text() -> None:
    script = parse_shell("echo $((NNODES * 8)) $(($GPUS + 1))\n")
    cmd = only(script)
    assert cmd.argv == ["echo", "$((NNODES * 8))", "$(($GPUS + 1))"]
    assert cmd.unresolved == ["NNODES", "GPUS"]
    assert symbolic_names(cmd.argv[1]) == ["NNODES"] and symbolic_names(cmd.argv[2]) == ["GPUS"]


def test_arithmetic_errors_are_notes() -> None:
    script = parse_shell("echo $((1 / 0)) $((2 +))\n")
    assert argvs(script) == [["echo", "$((1 / 0))", "$((2 +))"]]
    assert codes(script) == ["shell.arithmetic", "shell.arithmetic"]


def test_unresolved_recorded() -> None:
    cmd = only(parse_shell("python train.py --model $MODEL_PATH --out ${OUT}/x\n"))
    assert cmd.argv == ["python", "train.py", "--model", "${MODEL_PATH}", "--out", "${OUT}/x"]
    assert [symbolic_names(a) for a in cmd.argv[3:]] == [["MODEL_PATH"], [], ["OUT"]]
    assert cmd.unresolved == ["MODEL_PATH", "OUT"]


def test_tainted_variables_propagate() -> None:
    script = parse_shell(
        "CKPT=$BASE/ckpt\nLATEST=${CKPT}/latest\necho $LATEST\nBASE=/data\nCKPT=$BASE/ckpt\necho $CKPT\n"
    )
    first, second = script.commands
    assert first.argv == ["echo", "${BASE}/ckpt/latest"]
    assert first.unresolved == ["BASE"]
    assert second.argv == ["echo", "/data/ckpt"]
    assert second.unresolved == []


def test_positional_parameters() -> None:
    script = parse_shell('echo $1 ${2:-two} "$@" $* $# $0\n', source="run.sh")
    cmd = only(script)
    assert cmd.argv == ["echo", "${1}", "two", "0", "run.sh"]
    assert cmd.unresolved == ["1"]
    assert codes(script).count("shell.positional-args") == 3


def test_special_parameters_are_silent() -> None:
    script = parse_shell("sleep 1 &\nPID=$!\necho $$ $? $PID\n")
    assert script.commands[0].background is True
    assert script.commands[1].argv == ["echo"]
    assert script.commands[1].unresolved == []
    assert script.notes == []


def test_command_substitution_is_kept_as_text() -> None:
    script = parse_shell('TS=$(date +%s)\nB=`hostname`\necho "run_$TS" $B $(( $(nproc) * 2 ))\n')
    assert script.variables["TS"] == "$(date +%s)"
    assert argvs(script) == [["echo", "run_$(date +%s)", "`hostname`", "$(( $(nproc) * 2 ))"]]
    assert codes(script) == ["shell.command-substitution"] * 3
    assert [n.line for n in script.notes] == [1, 2, 3]


# --- operators and redirections ----------------------------------------------------------------------------


def test_operators_split_commands() -> None:
    script = parse_shell("a; b && c || d | e &\nf|&g\n")
    assert argvs(script) == [["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]
    assert [c.background for c in script.commands] == [False, False, False, False, True, False, False]


def test_redirections_removed() -> None:
    script = parse_shell("run a > out.log 2>&1\nrun b >> x 2>/dev/null < in &> all >&2\nrun c 1> o <<< here\n")
    assert argvs(script) == [["run", "a"], ["run", "b"], ["run", "c"]]


def test_background_server_then_trainer() -> None:
    script = parse_shell("CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model m &\nsleep 90\naccelerate launch x.py\n")
    assert [c.background for c in script.commands] == [True, False, False]
    assert script.commands[0].assignments == {"CUDA_VISIBLE_DEVICES": "0"}


# --- control flow --------------------------------------------------------------------------------------------


def test_if_block_is_read_sequentially() -> None:
    # MODEL, X and Y are unset: bash would run one of three branches, each leaving MODEL different (default, b, c),
    # so after the chain MODEL is unknown, naming the condition's variables (passing them decides it).
    script = parse_shell(
        'if [ -z "$MODEL" ]; then\n  MODEL=default\nelif [[ $X == a && -n "$Y" ]]; then\n  MODEL=b\n'
        "else\n  MODEL=c\nfi\necho $MODEL\nif test -f x; then echo yes; fi\n"
    )
    assert symbolic_names(script.commands[2].argv[1]) == ["$(MODEL set by the if at line 1)", "MODEL"]
    assert argvs(script) == [
        ["[", "-z", "${MODEL}", "]"],
        ["[[", "${X}", "==", "a", "&&", "-n", "${Y}", "]]"],
        ["echo", "$(MODEL set by the if at line 1)${MODEL}"],
        ["test", "-f", "x"],
        ["echo", "yes"],
    ]
    assert script.commands[0].unresolved == ["MODEL"]
    assert sorted(codes(script)) == ["shell.branch-dependent"] + ["shell.control-flow-skipped"] * 2


def test_for_loop_launches_its_first_round() -> None:
    # a loop launching one run per item: the first is the run rlconf reads; bash leaves the last item in SEED
    script = parse_shell("for SEED in 1 2 3; do\n  python train.py --seed $SEED\ndone\n")
    assert argvs(script) == [["python", "train.py", "--seed", "1"]]
    assert script.variables["SEED"] == "3"
    assert codes(script) == ["shell.control-flow-skipped"]
    assert "3 items read once per item" in script.notes[0].message


def test_for_loop_rounds_accumulate() -> None:
    # every round appends: bash runs the body once per item, so ARGS holds all three (not the first only)
    script = parse_shell(
        'ARGS=()\nfor k in a=1 b=2 c=3; do\n  case $k in b=*) ;; *) ARGS+=("x.$k") ;; esac\ndone\n'
        'python train.py "${ARGS[@]}"\n'
    )
    assert argvs(script) == [["python", "train.py", "x.a=1", "x.c=3"]]


def test_for_loop_rounds_are_bounded() -> None:
    # 600 items (past the 512 rounds read in one script): the loop is read once, with its first item, as before
    items = " ".join(str(n) for n in range(600))
    script = parse_shell(f"N=0\nfor i in {items}; do\n  N=$i\ndone\npython train.py --n $N\n")
    assert argvs(script) == [["python", "train.py", "--n", "0"]]


def test_while_until_and_c_style_for() -> None:
    script = parse_shell("while true; do run; done\nuntil false\ndo\n  x\ndone\nfor ((i=0; i<3; i++)); do y; done\n")
    assert argvs(script) == [["true"], ["run"], ["false"], ["x"], ["y"]]
    assert codes(script) == ["shell.control-flow-skipped"] * 3


def test_a_case_on_an_unknown_word_reads_every_branch_and_a_known_one_its_match() -> None:
    # $MODE is never set: every branch is read in order; `x` matches no pattern `a`, so `one` never runs
    script = parse_shell(
        'case "$MODE" in\n  train)\n    python train.py\n    ;;\n  eval|test) python eval.py ;;\n'
        "  (*) echo unknown ;;\nesac\necho after\ncase x in a) one;; esac\n"
    )
    assert argvs(script) == [["python", "train.py"], ["python", "eval.py"], ["echo", "unknown"], ["echo", "after"]]
    assert codes(script) == ["shell.control-flow-skipped", "shell.condition-decided"]
    # a known word: the first pattern it matches (b*), not a later one that also matches (*)
    script = parse_shell(
        'M=big\ncase "$M" in\n  a|c) python a.py ;;\n  b*) python b.py ;;\n  *) python z.py ;;\nesac\n'
    )
    assert argvs(script) == [["python", "b.py"]]


def test_a_variable_the_branches_of_an_undecided_case_leave_different_is_unknown() -> None:
    # as after an undecided if-chain: SIZE is 8 on one way, 16 on the other (and 4 when neither pattern matches)
    script = parse_shell('SIZE=4\ncase "$MODEL" in\n  7b) SIZE=8 ;;\n  32b) SIZE=16 ;;\nesac\npython x.py --n $SIZE\n')
    # the value names the case's word: --env MODEL=... decides it
    assert script.commands[0].argv[-1] == "$(SIZE set by the case at line 2)${MODEL}"
    [note] = [n for n in script.notes if n.code == "shell.branch-dependent"]
    assert "('16', '4', '8')" in note.message


def test_an_argument_loop_is_read_once_per_option() -> None:
    # while [[ $# -gt 0 ]]; case "$1" ... shift 2: each option sets its variable; the defaults of the others stay
    text = (
        "BS=128\nMINI=128\nN=8\n"
        'while [[ $# -gt 0 ]]; do\n  case "$1" in\n    --bs) BS="$2"; shift 2;;\n    --mini) MINI="$2"; shift 2;;\n'
        '    --n=*) N="${1#*=}"; shift;;\n    *) echo "unknown $1"; exit 1;;\n  esac\ndone\n'
        "python -m verl.trainer.main_ppo data.train_batch_size=$BS mini=$MINI n=$N\n"
    )
    script = parse_shell(text, env={"1": "--bs", "2": "64", "3": "--mini", "4": "16", "5": "--n=4"})
    assert script.commands[-1].argv[-3:] == ["data.train_batch_size=64", "mini=16", "n=4"]


def test_functions_and_groups() -> None:
    # bash runs a function's body where it is called (train, on the last line); setup and other are never called,
    # so their bodies are read at the end as top-level commands, with a note (a call rlconf cannot see may run them)
    script = parse_shell(
        "train() {\n  python a.py\n}\nfunction setup {\n  pip list\n}\n"
        "function other() { ls; }\n{ echo g; } > log\n(cd d && make)\ntrain\n"
    )
    assert argvs(script) == [
        ["echo", "g"],
        ["cd", "d"],
        ["make"],
        ["python", "a.py"],
        ["pip", "list"],
        ["ls"],
    ]
    assert codes(script) == ["shell.control-flow-skipped", "shell.control-flow-skipped", "shell.function-called"]


def test_a_function_reads_its_arguments_and_fills_the_callers_array_by_reference() -> None:
    # bash: add's `local -n out=$1` names the caller's array; launch's "$@" are its own arguments, and its local -n
    # ends with the call
    script = parse_shell(
        'add() {\n  local -n out="$1"\n  out+=("b=$2")\n}\n'
        'launch() {\n  local -a cmd=(python -m pkg.main "$@")\n  "${cmd[@]}"\n}\n'
        'ARGS=(a=1)\nadd ARGS 2\nout=(z)\nlaunch "${ARGS[@]}" c=3\n'
    )
    assert argvs(script) == [["python", "-m", "pkg.main", "a=1", "b=2", "c=3"]]


def test_what_a_function_prints_is_its_command_substitutions_value() -> None:
    # bash: n_gpus() echoes its second argument when that is not empty and returns (N_GPUS defaults to 2, so the
    # `if` is decided and the python fallback never runs); its `local` variables and X=9 die with the subshell
    script = parse_shell(
        'n_gpus() {\n  local given="${2:-}"\n  X=9\n  if [ -n "$given" ]; then\n    echo "$given"\n    return\n'
        '  fi\n  python - "$1" <<EOF\nprint(1)\nEOF\n}\nN_GPUS="${N_GPUS:-2}"\nN=$(n_gpus "0,1" "$N_GPUS")\n'
        "python train.py --n $N ${X:-none} $(printf '%s' \"$(n_gpus a)\")\n"
    )
    # without a second argument the function runs python: what it prints is not known, and the substitution stays
    # text (printf '%s' of it is not evaluated either)
    assert argvs(script)[-1][:4] == ["python", "train.py", "--n", "2"]
    assert argvs(script)[-1][4] == "none"
    assert "shell.function-output" in codes(script)
    # what it prints to stderr (a warning) is not its output
    script = parse_shell('f() {\n  echo "warn" >&2\n  echo 4\n}\nN=$(f)\npython t.py --n $N\n')
    assert argvs(script) == [["python", "t.py", "--n", "4"]]


def test_a_function_whose_output_depends_on_an_undecided_branch_prints_nothing_known() -> None:
    # MODE is never set: which echo runs is not known, so $(pick) stays a command substitution kept as text
    script = parse_shell(
        'pick() {\n  if [ "$MODE" = a ]; then\n    echo 1\n  else\n    echo 2\n  fi\n}\npython t.py --n $(pick)\n'
    )
    assert argvs(script)[0] == ["python", "t.py", "--n", "$(pick)"]
    assert "shell.function-output" not in codes(script)


def test_a_comment_in_backquotes_inside_a_continued_command_is_no_word() -> None:
    # bash: `# a note` is a command substitution of nothing (a comment), so it adds no word to the command
    script = parse_shell("python t.py \\\n  `# the batch` \\\n  --n 2\n")
    assert argvs(script) == [["python", "t.py", "--n", "2"]]
    assert "shell.command-substitution" not in codes(script)


def test_a_sourced_path_one_branch_names_is_followed() -> None:
    # ROOT is $SLURM_DIR on one way through the if, "." on the other; only ./lib.sh is a file of the project
    files = {"lib.sh": "run() { python x.py; }\n"}

    def include(path: str, cwd: str | None) -> tuple[str, str] | None:
        name = path.removeprefix("./")
        return (files[name], name) if name in files else None

    script = parse_shell(
        'if [[ -n "${SLURM_DIR:-}" ]]; then ROOT="$SLURM_DIR"; else ROOT=.; fi\nsource "$ROOT/lib.sh"\nrun\n',
        include=include,
    )
    assert argvs(script)[-1] == ["python", "x.py"]
    assert {"shell.branch-path", "shell.script-followed", "shell.function-called"} <= set(codes(script))


def test_heredoc_bodies_are_skipped() -> None:
    script = parse_shell(
        "cat > cfg.yaml <<EOF\nlr: $LR\n'unbalanced\nEOF\ncat <<'END' | tee x\nbody\nEND\n"
        "cat <<-EOT\n\tindented\n\tEOT\necho done\n"
    )
    assert argvs(script) == [["cat"], ["cat"], ["tee", "x"], ["cat"], ["echo", "done"]]
    # the first is written to cfg.yaml (kept for a command that runs it: none here)
    assert codes(script) == ["shell.heredoc-written"] + ["shell.heredoc-skipped"] * 2
    assert script.commands[-1].line == 11
    assert all(c.unresolved == [] for c in script.commands)


def test_unterminated_heredoc_is_a_note() -> None:
    script = parse_shell("cat <<EOF\nno end\n")
    assert codes(script) == ["shell.heredoc-skipped"]
    assert "never terminated" in script.notes[0].message


def test_heredoc_inside_command_substitution() -> None:
    script = parse_shell("MSG=$(cat <<EOT\nit's here\nEOT\n)\necho 'after'\n")
    assert script.variables["MSG"] == "it's here"  # the heredoc's text is what cat prints
    assert argvs(script) == [["echo", "after"]]
    assert script.commands[0].line == 5


def test_process_substitution_and_required_variable() -> None:
    script = parse_shell("torchrun t.py &> >(tee log)\necho ${NEEDED:?set NEEDED}\n")
    assert argvs(script) == [["torchrun", "t.py"], ["echo", "${NEEDED}"]]
    assert script.commands[1].unresolved == ["NEEDED"]


def test_source_is_noted() -> None:
    # No include given (or the file is not in the project): the sourced files are not read, and it says so.
    script = parse_shell(". ./env.sh\nsource common.sh\n")
    assert codes(script) == ["shell.script-not-followed"] * 2


def test_called_and_sourced_scripts_are_read_as_part_of_the_launch() -> None:
    files = {
        "env.sh": "export NODES=2\nMODEL_ARGS=(--tp 2)\n",
        "scripts/_run.sh": 'cd "$(dirname "$0")"\n'
        'python3 -m pkg.train --nodes $NODES --gpus $GPUS --exp $1 "${MODEL_ARGS[@]}"\n',
    }

    def include(path: str, cwd: str | None) -> tuple[str, str] | None:
        return (files[path], path) if path in files else None

    # source: its variables stay set here; bash x.sh A: a child with A as $1 that sees the variables set so far.
    script = parse_shell(
        "source env.sh\nexport GPUS=8\nexec bash scripts/_run.sh exp1 --extra\nbash missing.sh\n", include=include
    )
    run = [c for c in script.commands if c.argv[:1] == ["python3"]]
    assert [c.argv for c in run] == [
        ["python3", "-m", "pkg.train", "--nodes", "2", "--gpus", "8", "--exp", "exp1", "--tp", "2"]
    ]
    assert run[0].line == 3 and run[0].cwd == "scripts"  # run from the calling line; the child's cd is its own
    assert script.variables["NODES"] == "2" and "GPUS" in script.variables
    assert codes(script).count("shell.script-followed") == 2
    assert any(n.code == "shell.script-not-followed" and "missing.sh" in n.message for n in script.notes)


def test_a_called_script_behind_an_unset_options_variable() -> None:
    # srun's options end in ${SLURM_ARGS}, never set: unquoted and unset it is no word at all, so bash runs the script
    script = parse_shell(
        "srun --ntasks 2 ${SLURM_ARGS} bash $(dirname $0)/ray.sh\n",
        source="scripts/launch.sh",
        include=lambda path, cwd: (
            ("python3 -m verl.trainer.main_ppo a=1\n", path) if path == "scripts/ray.sh" else None
        ),
    )
    assert script.commands[-1].argv == ["python3", "-m", "verl.trainer.main_ppo", "a=1"]


def test_tmux_send_keys_types_a_command_line() -> None:
    script = parse_shell(
        'B=16\ntmux send-keys -t train "python3 -m verl.trainer.main_ppo data.train_batch_size=$B" C-m\n'
    )
    assert script.commands[-1].argv == ["python3", "-m", "verl.trainer.main_ppo", "data.train_batch_size=16"]


def test_pwd_is_where_the_script_runs() -> None:
    script = parse_shell("W=$PWD\nC=$(pwd)\ncd sub\nD=$PWD\necho $W/x.yaml $C $D\n")
    assert script.commands[-1].argv == ["echo", "./x.yaml", ".", "sub"]


# --- errors ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, what",
    [
        ("echo ok\necho 'fine'\necho \"never\nclosed\n", 3, "double quote"),
        ("a=1\n\nb='open\n", 3, "single quote"),
        ("echo ${A:-x\n", 1, "${"),
        ("x\ny=$((1 + 2\n", 2, "$(("),
        ("z=$(date\n", 1, "$("),
        ("echo `date\n", 1, "backtick"),
    ],
)
def test_unterminated_constructs_raise(text: str, line: int, what: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_shell(text, source="run.sh")
    err = info.value
    assert err.line == line
    assert err.file == "run.sh"
    assert "unterminated" in err.message and what in err.message
    assert err.hint and f"line {line}" in err.hint


def test_crlf_line_endings() -> None:
    assert argvs(parse_shell("A=1\r\necho $A \\\r\n  b\r\n")) == [["echo", "1", "b"]]


def test_apostrophe_in_comment_is_not_a_quote() -> None:
    assert argvs(parse_shell("# don't panic\necho ok # it's fine\n")) == [["echo", "ok"]]


def test_module_never_executes_or_reads_the_environment() -> None:
    import translator.sources.shell as shell

    with open(shell.__file__, encoding="utf-8") as f:
        code = f.read()
    for forbidden in ("subprocess", "os.environ", "eval(", "exec(", "os.system", "getenv"):
        assert forbidden not in code, forbidden
    script = parse_shell("X=$(touch /tmp/rlconf-must-not-exist)\necho `rm -rf /tmp/x`\n")
    assert script.variables["X"] == "$(touch /tmp/rlconf-must-not-exist)"


# --- unwrap_command ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["python3", "-m", "x"], ["python3", "-m", "x"]),
        (["python", "-u", "t.py"], ["python", "-u", "t.py"]),
        (["nohup", "python3.11", "t.py"], ["python3.11", "t.py"]),
        (["time", "-p", "exec", "python", "t.py"], ["python", "t.py"]),
        (["env", "-i", "A=1", "B=2", "python", "t.py"], ["python", "t.py"]),
        (["timeout", "-k", "10", "24h", "python", "t.py"], ["python", "t.py"]),
        (["sudo", "-E", "python", "t.py"], ["python", "t.py"]),
        (
            ["srun", "--nodes=2", "-N", "2", "--gres", "gpu:8", "--exclusive", "-p", "q", "python", "t.py"],
            ["python", "t.py"],
        ),
        # srun(1): --jobid and --wait take a value; --kill-on-bad-exit's is optional (only as --opt=value)
        (
            ["srun", "--wait", "60", "--kill-on-bad-exit", "--jobid", "${SLURM_JOB_ID}", "python", "t.py"],
            ["python", "t.py"],
        ),
        (["uv", "run", "--with", "vllm", "--project", ".", "--frozen", "python", "t.py"], ["python", "t.py"]),
        (["uv", "run", "-m", "verl.trainer.main_ppo", "a=1"], ["python", "-m", "verl.trainer.main_ppo", "a=1"]),
        (
            [
                "ray",
                "job",
                "submit",
                "--address=http://127.0.0.1:8265",
                "--runtime-env=x.yaml",
                "--no-wait",
                "--",
                "python3",
                "-m",
                "verl.trainer.main_ppo",
                "a=1",
                "--",
                "b",
            ],
            ["python3", "-m", "verl.trainer.main_ppo", "a=1", "--", "b"],
        ),
        (["ray", "job", "submit", "--address", "http://h:8265", "python", "t.py"], ["python", "t.py"]),
        (
            ["python", "mason.py", "--cluster", "c", "--gpus", "8", "--", "accelerate", "launch", "t.py"],
            ["accelerate", "launch", "t.py"],
        ),
        (["nohup", "srun", "-N", "1", "env", "X=1", "uv", "run", "python", "t.py"], ["python", "t.py"]),
        (["bash", "train.sh"], ["bash", "train.sh"]),
        ([], []),
    ],
)
def test_unwrap(argv: list[str], expected: list[str]) -> None:
    assert unwrap_command(argv) == expected


def test_unwrap_bash_c() -> None:
    inner = "cd /work && CUDA_VISIBLE_DEVICES=0 nohup python train.py --lr ${LR:-1e-5} $EXTRA 2>&1 | tee log"
    assert unwrap_command(["bash", "-c", inner]) == ["python", "train.py", "--lr", "1e-5", "${EXTRA}"]
    assert unwrap_command(["sh", "-lc", inner], env={"LR": "3e-4", "EXTRA": "--bf16 --x"}) == [
        "python",
        "train.py",
        "--lr",
        "3e-4",
        "--bf16",
        "--x",
    ]


def test_bash_c_in_a_script() -> None:
    script = parse_shell("""srun -N 1 bash -c "python t.py --nodes \\$SLURM_NNODES --model $M" \n""", env={"M": "q"})
    cmd = only(script)
    assert cmd.argv == ["srun", "-N", "1", "bash", "-c", "python t.py --nodes $SLURM_NNODES --model q"]
    assert unwrap_command(cmd.argv, env={"SLURM_NNODES": "2"}) == ["python", "t.py", "--nodes", "2", "--model", "q"]


# --- fixtures-style end to end -------------------------------------------------------------------------------


def test_ray_submit_script_end_to_end() -> None:
    text = (
        'set -xeuo pipefail\nexport EXP=${EXP:-"grpo"}\nNNODES=${NNODES:-2}\nGPUS=${GPUS_PER_NODE:-8}\n'
        'WORLD=$((NNODES * GPUS))\nTRAIN_BS=$((WORLD * 8))\nDATA=${DATA_DIR:-"$HOME/data"}\n'
        "ray job submit --address=http://127.0.0.1:8265 \\\n    --runtime-env=x.yaml \\\n"
        '    -- python3 -m verl.trainer.main_ppo \\\n    data.train_files="${DATA}/train.parquet" \\\n'
        '    data.train_batch_size=${TRAIN_BS} \\\n    trainer.experiment_name="${EXP}" \\\n    "$@"\n'
    )
    script = parse_shell(text, env={"NNODES": "4", "HOME": "/home/me"})
    ray = script.commands[-1]
    assert unwrap_command(ray.argv) == [
        "python3",
        "-m",
        "verl.trainer.main_ppo",
        "data.train_files=/home/me/data/train.parquet",
        "data.train_batch_size=256",
        "trainer.experiment_name=grpo",
    ]
    assert ray.line == 8 and ray.unresolved == []
    without_home = parse_shell(text)
    assert without_home.commands[-1].unresolved == ["HOME"]  # DATA was built from the missing HOME


def test_expr_on_whole_numbers_is_computed_and_nothing_else_is_run() -> None:
    # expr truncates toward zero (-7 / 2 = -3); division by zero and unknown operands stay unrun text.
    script = parse_shell(
        "p=1024\nr=2048\nt=$(expr $p + $r)\nu=`expr $p \\* 3`\n"
        "echo $t $u $(expr -7 / 2) $(expr 7 % 0) $(expr $z + 1) $(nproc)\n"
    )
    assert argvs(script) == [["echo", "3072", "3072", "-3", "$(expr 7 % 0)", "$(expr $z + 1)", "$(nproc)"]]
    assert codes(script).count("shell.command-substitution") == 3


def test_arithmetic_with_a_nested_group_stays_one_word_when_kept() -> None:
    # sp is set only after its use, so the arithmetic is kept as text; it is still one word.
    script = parse_shell("a=2\nx=$(((a + b) / sp))\necho k=$x\nsp=2\n")
    assert argvs(script) == [["echo", "k=$(((a + b) / sp))"]]


def test_the_script_folder_idiom_and_cd_are_followed() -> None:
    # $(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd): the script's folder's parent, relative to where it runs;
    # later commands carry the directory `cd` moved to; dirname/basename are string work, nothing else is run.
    script = parse_shell(
        'ROOT="$( cd "$( dirname "${BASH_SOURCE[0]}" )/.." && pwd )"\ncd ${ROOT}/src/fork\n'
        "echo $(basename a/b.sh) $(dirname b.sh) $(whoami)\ncd $UNSET\necho x\n",
        source="run_scripts/train.sh",
    )
    assert script.variables["ROOT"] == "."
    assert [(c.argv, c.cwd) for c in script.commands] == [
        (["cd", "./src/fork"], "src/fork"),
        (["echo", "b.sh", ".", "$(whoami)"], "src/fork"),
        (["cd", "${UNSET}"], "src/fork/${UNSET}"),
        (["echo", "x"], "src/fork/${UNSET}"),
    ]


@pytest.mark.parametrize(
    ("text", "last"),
    [
        # the script's own values decide the chain: only the branch bash runs is read
        ('M=7b\nif [ "$M" = "7b" ]; then\n BS=8\nelif [ "$M" = "32b" ]; then\n BS=4\nelse\n BS=2\nfi\necho $BS\n', "8"),
        ('M=32b\nif [ "$M" = "7b" ]; then BS=8; elif [ "$M" = "32b" ]; then BS=4; else BS=2; fi\necho $BS\n', "4"),
        ("N=4\nif [ $N -gt 2 ]; then\n if [ $N -lt 3 ]; then X=a; else X=b; fi\nelse\n X=c\nfi\necho $X\n", "b"),
        ('A=""\nif [[ -n "$A" ]]; then A=x; fi\nif test -z "$A"; then A=y; fi\necho $A\n', "y"),
        # unset, or a default the environment may override: undecided; a value the branches leave different is
        # unknown, naming the if and the condition's variables (bash runs one branch, which depends on them)
        ('if [ "$UNSET" = a ]; then BS=8; else BS=2; fi\necho $BS\n', "$(BS set by the if at line 1)${UNSET}"),
        (
            'R="${R:-0}"\nif [[ "$R" == "1" ]]; then BS=8; else BS=2; fi\necho $BS\n',
            "$(BS set by the if at line 2)${R}",
        ),
        # BS stays unset unless ROLE is vllm (ROLE unset: "train")
        ('if [ "${ROLE:-train}" = vllm ]; then BS=8; fi\necho $BS\n', "$(BS set by the if at line 1)${ROLE}"),
        # the idiom "set it when unset": a default the environment may override, as X=${X:-4} would be
        ('if [ -z "$X" ]; then X=4; fi\necho $X\n', "4"),
        # every way through leaves the same value: known
        ('if [ "$U" = a ]; then BS=8; else BS=8; fi\necho $BS\n', "8"),
    ],
)
def test_conditions_with_known_operands_are_decided(text: str, last: str) -> None:
    assert parse_shell(text).commands[-1].argv == ["echo", last]


# --- command bodies, wrappers, GPU counts -------------------------------------------------------------------------
def test_bash_c_body_of_several_statements_is_read_as_commands() -> None:
    # The program is the second statement (after cd), the last is `exit`: each statement is a command of its own,
    # on the line of the body it sits on (the body opens on line 2, so its line 3 is script line 4).
    script = parse_shell('A=1\nsrun -N 1 bash -c "\n  cd /w\n  python t.py --a $A\n  exit 0"\n')
    argvs = [(c.argv, c.line) for c in script.commands]
    assert (["python", "t.py", "--a", "1"], 4) in argvs
    assert next(c for c in script.commands if c.argv[0] == "python").cwd == "/w"


def test_args_variable_split_only_when_unquoted_or_reparsed() -> None:
    # ARGS unquoted splits into 4 words; "$ARGS" quoted stays one word; spliced into a bash -c body it is re-parsed.
    text = 'ARGS="--a 1 --b 2"\npython x.py $ARGS\npython y.py "$ARGS"\nbash -c \'cd d; python z.py \'"$ARGS"\'\'\n'
    argvs = [c.argv for c in parse_shell(text).commands]
    assert ["python", "x.py", "--a", "1", "--b", "2"] in argvs
    assert ["python", "y.py", "--a 1 --b 2"] in argvs
    # a body whose one program follows a cd is unwrapped to it (the command itself stays one command)
    assert unwrap_command(argvs[-1]) == ["python", "z.py", "--a", "1", "--b", "2"]


@pytest.mark.parametrize(
    "argv",
    [
        ["apptainer", "exec", "--nv", "-B", "/d:/d", "img.sif", "python", "t.py"],
        ["singularity", "exec", "--bind", "/d", "img.sif", "python", "t.py"],
        ["conda", "run", "-n", "rl", "python", "t.py"],
        ["stdbuf", "-oL", "python", "t.py"],
        ["numactl", "--cpunodebind", "0", "python", "t.py"],
        ["sbatch", "--wrap", "python t.py"],
        ["env", "A=B", "timeout", "1h", "uv", "run", "python", "t.py"],
    ],
)
def test_wrappers_unwrap(argv: list[str]) -> None:
    assert unwrap_command(argv) == ["python", "t.py"]


@pytest.mark.parametrize(
    ("argv", "program"),
    [
        (["python3", "-u", "-m", "fork.main_x", "a=1"], 3),
        (["python", "-m", "torch.distributed.run", "--nproc_per_node", "8", "-m", "fork.main_x"], 6),
        (["torchrun", "--nnodes", "2", "train.py", "--x"], 3),
        (["deepspeed", "--num_gpus", "8", "train.py"], 3),
        (["accelerate", "launch", "--config_file", "z.yaml", "-m", "fork.train"], 5),
        (["python", "-c", "print(1)"], None),
        (["bash", "x.sh"], None),
    ],
)
def test_program_index(argv: list[str], program: int | None) -> None:
    from translator.sources.shell import program_index

    assert program_index(argv) == program


@pytest.mark.parametrize(
    ("text", "word", "unresolved"),
    [
        # nvidia-smi lists every GPU of the machine, whatever CUDA_VISIBLE_DEVICES says: never known
        ("export CUDA_VISIBLE_DEVICES=0,1\nN=$(nvidia-smi -L | wc -l)\n", "${N}", ["N"]),
        ("N=$(nvidia-smi --list-gpus | wc -l)\n", "${N}", ["N"]),
        # torch and item counts follow CUDA_VISIBLE_DEVICES: 0,1,2 → 3 devices
        ("CUDA_VISIBLE_DEVICES=0,1,2\nN=$(python -c 'import torch; print(torch.cuda.device_count())')\n", "3", []),
        ("CUDA_VISIBLE_DEVICES=4,5\nN=$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\\n' | wc -l)\n", "2", []),
        ("CUDA_VISIBLE_DEVICES=4,5,6,7\nN=$(echo \"$CUDA_VISIBLE_DEVICES\" | awk -F, '{print NF}')\n", "4", []),
        ("CUDA_VISIBLE_DEVICES=4,5,6\nG=(${CUDA_VISIBLE_DEVICES//,/ })\nN=${#G[@]}\n", "3", []),
        # not set in the script: unknown
        ("N=$(python3 -c 'import torch; print(torch.cuda.device_count())')\n", "${N}", ["N"]),
    ],
)
def test_gpu_counts(text: str, word: str, unresolved: list[str]) -> None:
    command = parse_shell(text + "python t.py --gpus $N\n").commands[-1]
    assert command.argv[-1] == word
    assert command.unresolved == unresolved


def test_gpu_count_takes_the_env_value() -> None:
    script = parse_shell("N=$(nvidia-smi -L | wc -l)\npython t.py --gpus $N\n", env={"N": "8"})
    assert script.commands[-1].argv[-1] == "8"


def test_positional_arguments_stay_unknown() -> None:
    command = parse_shell("python t.py --gpus $1 --nodes ${2}\n").commands[-1]
    assert command.argv[-4:] == ["--gpus", "${1}", "--nodes", "${2}"]
    assert command.unresolved == ["1", "2"]


ARG_LOOP = (
    'N_NODE=1\nwhile [[ $# -gt 0 ]]; do\n  case $1 in\n    --n_node) N_NODE="$2"; shift 2 ;;\n'
    "    *) break ;;\n  esac\ndone\npython -m verl.trainer.main_ppo trainer.nnodes=$N_NODE\n"
)


def test_argument_loop_never_runs_without_arguments() -> None:
    # No arguments: $# is 0, `[[ 0 -gt 0 ]]` is false, the loop body never runs, so N_NODE keeps its 1.
    script = parse_shell(ARG_LOOP)
    assert script.commands[-1].argv[-1] == "trainer.nnodes=1"
    assert script.commands[-1].unresolved == []
    assert any("loop body not read" in n.message for n in script.notes)


def test_argument_loop_with_arguments_reads_the_body() -> None:
    # --env 1=--n_node --env 2=4: $# is 2, the body is read (once, its `case` branches in order): N_NODE=$2=4.
    script = parse_shell(ARG_LOOP, env={"1": "--n_node", "2": "4"})
    assert script.commands[-1].argv[-1] == "trainer.nnodes=4"


def test_until_loop_that_never_runs_and_nesting() -> None:
    # `until [ 1 -eq 1 ]` is true at once: its body (a nested for loop and if) is skipped up to its own `done`
    # (the condition, a test, is no command of interest either).
    script = parse_shell(
        "until [ 1 -eq 1 ]; do\n  for x in a b; do\n    skipped $x\n  done\n"
        "  if true; then also_skipped; fi\ndone\nafter\n"
    )
    assert argvs(script) == [["after"]]


def test_positional_values_come_from_env() -> None:
    # --env 1=a --env 2=b: $1 and ${2} are the arguments, $# counts them and "$@" is one word each.
    command = parse_shell('python t.py $1 ${2} $# "$@"\n', env={"1": "a", "2": "b c"}).commands[-1]
    assert command.argv == ["python", "t.py", "a", "b", "c", "2", "a", "b c"]


def test_a_quoted_empty_array_is_no_word_and_a_comment_in_an_array_is_text() -> None:
    # bash: "${W[@]}" of an empty array expands to no word at all ("x${W[@]}" to "x"); inside a multi-line array,
    # '#' at a word's start begins a comment, so the apostrophe in "model's" opens no quote.
    script = parse_shell(
        'W=()\nA=(\n  --x 1\n  # the model\'s own\n  --y 2\n)\npython3 train.py "${A[@]}" "${W[@]}" "x${W[@]}"\n'
    )
    assert script.commands[-1].argv == ["python3", "train.py", "--x", "1", "--y", "2", "x"]


def _listing(files: dict[str, list[str]]):
    """A listing over a fake folder: pattern → the paths it matches (sorted), as the reader's callback gives them."""

    def listing(pattern: str, cwd: str | None, kind: str | None) -> list[str] | None:
        return files.get(pattern)

    return listing


def test_a_glob_in_a_loop_or_array_lists_the_files_it_matches() -> None:
    files = {"cfg/*.yaml": ["cfg/a.yaml", "cfg/b.yaml"]}
    script = parse_shell(
        'for c in cfg/*.yaml; do python x.py --config "$c"; done\nA=(cfg/*.yaml "cfg/*.yaml" none/*.x)\n',
        listing=_listing(files),
    )
    # the loop reads its first item; a quoted pattern is no glob, and one that matches nothing stays as written
    assert script.commands[0].argv[-1] == "cfg/a.yaml"
    assert script.variables["A"] == "cfg/a.yaml cfg/b.yaml cfg/*.yaml none/*.x"


def test_find_and_ls_over_one_folder_list_its_files() -> None:
    files = {"cfg/*.yaml": ["cfg/a.yaml", "cfg/b.yaml"]}
    text = (
        'A=($(find cfg -maxdepth 1 -type f -name "*.yaml"))\nB=($(ls cfg/*.yaml))\n'
        "C=($(find cfg -name '*.yaml'))\n"  # no -maxdepth 1: a walk of every folder below, not listed
    )
    script = parse_shell(text, listing=_listing(files))
    assert script.variables["A"] == script.variables["B"] == "cfg/a.yaml cfg/b.yaml"
    assert script.variables["C"].startswith("$(find")


def test_each_command_carries_the_gpus_it_sees_when_the_script_fixes_them() -> None:
    # CUDA_VISIBLE_DEVICES at each command as bash would hand it on: an export holds until it is changed, a prefix
    # assignment is the command's own; a default the environment may override (${X:-d}), a value from an unset
    # variable or one that depends on an undecided branch is not known (None), nor is the machine's (unset).
    text = (
        "python a.py\n"  # unset: the machine's GPUs
        "export CUDA_VISIBLE_DEVICES=0,1\n"
        "python b.py\n"
        "CUDA_VISIBLE_DEVICES=2,3,4 python c.py\n"
        "python d.py\n"  # the prefix was c.py's alone: the export again
        "export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-5,6}\n"
        "python e.py\n"
        "CUDA_VISIBLE_DEVICES=$GPUS python f.py\n"
        'if [ "$MODE" = a ]; then CUDA_VISIBLE_DEVICES=0; else CUDA_VISIBLE_DEVICES=1; fi\n'
        "python g.py\n"
    )
    seen = [c.visible_devices for c in parse_shell(text).commands if c.argv[0] == "python"]
    assert seen == [None, "0,1", "2,3,4", "0,1", None, None, None]
    # --env states the value: it takes the place of the default ${X:-d} keeps, and of the machine's
    given = parse_shell(
        "export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-5,6}\npython e.py\n", env={"CUDA_VISIBLE_DEVICES": "7"}
    )
    assert only(given).visible_devices == "7"
    stated = parse_shell("python e.py\n", env={"CUDA_VISIBLE_DEVICES": "0,1,2"})
    assert only(stated).visible_devices == "0,1,2"


def test_a_plain_assignment_of_the_gpus_is_not_what_the_launch_sees() -> None:
    # bash hands a program only exported variables: a plain CUDA_VISIBLE_DEVICES=0,1 reaches it only if the
    # environment already exports the name, which the script does not say; export, declare -x, set -a and a prefix
    # assignment do hand it on (a called script sees what was exported and its own prefix assignments)
    seen = {
        "CUDA_VISIBLE_DEVICES=0,1\npython a.py\n": None,
        "CUDA_VISIBLE_DEVICES=0,1\nexport CUDA_VISIBLE_DEVICES\npython a.py\n": "0,1",
        "declare -x CUDA_VISIBLE_DEVICES=0,1\npython a.py\n": "0,1",
        "set -a\nCUDA_VISIBLE_DEVICES=0,1\npython a.py\n": "0,1",
        "CUDA_VISIBLE_DEVICES=0,1 python a.py\n": "0,1",
    }
    for text, expected in seen.items():
        assert parse_shell(text).commands[-1].visible_devices == expected, text


def test_a_placeholder_to_fill_in_is_read_as_its_text() -> None:
    # MODEL=<your_model_path> and `--x <PATH> \` are values left for the user: bash would read '<' and '>' as
    # redirections (the second with no target) and stop, so they are read as the placeholder's text, with a note;
    # `cat <in> out` (a '>' followed by a word on the line) stays two redirections, as bash reads it
    text = (
        "MODEL=<your_model_path>\nREF=<your_model_path> # same\n"
        "python train.py --pretrain ${MODEL} --data <PATH> \\\n  --n 4\ncat <in> out\n"
    )
    script = parse_shell(text)
    assert script.variables["MODEL"] == script.variables["REF"] == "<your_model_path>"
    assert argvs(script) == [
        ["python", "train.py", "--pretrain", "<your_model_path>", "--data", "<PATH>", "--n", "4"],
        ["cat"],
    ]
    assert codes(script).count("shell.placeholder") == 3


def test_the_length_of_a_variable_never_set_is_unknown_not_zero() -> None:
    # `read -ra G <<< "$IDS"` fills G at run time (read is not modelled): ${#G[@]} is its element count there, so
    # it stays symbolic, naming G (bash would give 0 only if G were really unset)
    script = parse_shell('IFS="," read -ra G <<< "${IDS}"\nN=${#G[@]}\nM=${#U}\necho $N $M\n')
    words = script.commands[-1].argv[1:]
    assert [symbolic_names(w) for w in words] == [["G"], ["U"]]
    assert parse_shell("G=(a b c)\necho ${#G[@]}\n").commands[-1].argv[1:] == ["3"]


def test_an_empty_value_the_comment_asks_to_fill_in_is_a_placeholder() -> None:
    # KEY=""  # Provide your key here: the user fills it in before running, so it is unknown (symbolic), not the
    # empty string bash would drop the word for; an empty value with another comment stays empty
    script = parse_shell(
        'KEY=""  # Provide your wandb key here before running\nEMPTY="" # no tags\necho $KEY x$EMPTY\n'
    )
    assert script.commands[-1].argv[1:] == ["${KEY}", "x"]
    assert "shell.placeholder" in {n.code for n in script.notes}
    given = parse_shell('KEY=""  # fill in\necho $KEY\n', {"KEY": "abc"})
    assert given.commands[-1].argv[1:] == ["abc"]
    # an empty secret needs no comment: a key or token is never committed
    secret = parse_shell('WANDB_KEY=""\nHF_TOKEN=\nMONKEY=""\necho $WANDB_KEY $HF_TOKEN x$MONKEY\n')
    assert secret.commands[-1].argv[1:] == ["${WANDB_KEY}", "${HF_TOKEN}", "x"]


@pytest.mark.parametrize("ending", ["\\\\", "\\ ", ""])
def test_options_on_a_line_the_one_before_does_not_continue_onto_are_not_passed(ending: str) -> None:
    # "\\" at a line's end is an escaped backslash, "\ " a space escaped: either ends the command there, as no "\"
    # does; bash then runs "--n-samples-per-prompt" as a command (not found), and train.py runs without it. Options
    # that set the batch plan (slime's samples per prompt and global batch): the run differs from the one written,
    # refused. Options that set none (--seed, --save-interval): read as bash runs it, with an error note naming them.
    import translator
    from translator.sources.files import Source

    text = f"python3 train.py --rollout-batch-size 8 {ending}\n   --n-samples-per-prompt 4 --global-batch-size 32\n"
    for framework in ("slime", "miles"):  # Miles has no concordance of its own: any framework's plan keys count
        with pytest.raises(
            ConfigError, match=r"'--n-samples-per-prompt' runs as a command.*set the batch plan"
        ) as error:
            translator.load(Source(text, "run.sh"), framework=framework)
        assert error.value.line == 2
    text = (
        "python3 train.py --rollout-batch-size 8 --n-samples-per-prompt 4 --global-batch-size 32 "
        f"{ending}\n   --seed 42 --save-interval 20\n"
    )
    explanation = translator.load(Source(text, "run.sh"), framework="slime")
    assert explanation.spec.plan.samples_per_prompt == 4
    (note,) = [n for n in explanation.notes if n.code == "shell.options-run-as-command"]
    assert note.severity == "error" and "run.sh:2:" in note.message
    assert note.source_keys == ["--seed", "--save-interval"]


def test_a_launch_cut_off_from_its_program_stops_the_read() -> None:
    # a blank line after `ray job submit ... \` ends the submit there; the next line runs "--" as a command (not
    # found), so the trainer it names never starts: refused
    import translator
    from translator.sources.files import Source

    text = (
        "ray job submit --address=http://127.0.0.1:8265 \\\n\n  -- python3 -m verl.trainer.main_ppo "
        "data.train_batch_size=8\n"
    )
    with pytest.raises(ConfigError, match="'--' runs as a command") as error:
        translator.load(Source(text, "run.sh"), framework="verl")
    assert error.value.line == 3


def test_options_the_branches_of_an_undecided_if_give_are_read_where_they_agree() -> None:
    # bash runs one branch by $NODES (not known here); the else branch exits, so no way reaches the launch with setup
    # unset. --actor_num_nodes is 1 on both ways (known); --actor_num_gpus_per_node is 4 or 8 (unknown, naming the
    # chain and NODES, which decides it); --colocate is given on one way only (a switch cannot be written unknown).
    script = parse_shell(
        'if [ "$NODES" -eq 1 ]; then\n  setup="--actor_num_nodes 1 --actor_num_gpus_per_node 4 --colocate"\n'
        'elif [ "$NODES" -eq 2 ]; then\n  setup="--actor_num_nodes 1 --actor_num_gpus_per_node 8"\n'
        'else\n  echo "unsupported"\n  exit 1\nfi\npython3 -m openrlhf.cli.train_ppo_ray $setup --seed 1\n'
    )
    assert script.commands[-1].argv == [
        "python3",
        "-m",
        "openrlhf.cli.train_ppo_ray",
        "--actor_num_nodes",
        "1",
        "--actor_num_gpus_per_node",
        "$(--actor_num_gpus_per_node in setup set by the if at line 1)${NODES}",
        "--seed",
        "1",
    ]
    [dependent] = [n for n in script.notes if n.code == "shell.branch-dependent" and "setup depends" in n.message]
    assert "unset" not in dependent.message  # the exiting branch is no way through


def test_hydra_overrides_the_branches_give_are_read_where_they_agree() -> None:
    # without an else, a way leaves EXTRA unset: trainer.nnodes=1 is on both branches but not on that way (unknown)
    script = parse_shell(
        'if [ "$BIG" = 1 ]; then\n  EXTRA="trainer.nnodes=1 data.train_batch_size=512"\n'
        'elif [ "$BIG" = 2 ]; then\n  EXTRA="trainer.nnodes=1 data.train_batch_size=256"\nfi\n'
        "python3 -m verl.trainer.main_ppo $EXTRA\n"
    )
    argv = script.commands[-1].argv
    assert argv[3:] == [
        "trainer.nnodes=$(trainer.nnodes in EXTRA set by the if at line 1)${BIG}",
        "data.train_batch_size=$(data.train_batch_size in EXTRA set by the if at line 1)${BIG}",
    ]


def test_sbatch_directives_set_the_allocation_variables() -> None:
    # sbatch(1): --nodes=2 exports SLURM_JOB_NUM_NODES=2, --gpus-per-node=4 SLURM_GPUS_PER_NODE=4; `scontrol show
    # hostnames $SLURM_JOB_NODELIST` prints one host per node, so the array holds 2 words
    script = parse_shell(
        "#!/bin/bash\n#SBATCH --nodes=2  # two nodes\n#SBATCH --gpus-per-node=4\nset -x\n"
        "HOSTS=($(scontrol show hostnames $SLURM_JOB_NODELIST))\n"
        "torchrun --nnodes ${#HOSTS[@]} --nproc_per_node $SLURM_GPUS_PER_NODE train.py\n"
    )
    assert script.commands[-1].argv[:5] == ["torchrun", "--nnodes", "2", "--nproc_per_node", "4"]
    # SLURM_JOB_NUM_NODES, SLURM_NNODES, SLURM_GPUS_PER_NODE, SLURM_GPUS_ON_NODE (the node's GPUs) and
    # CUDA_VISIBLE_DEVICES (Slurm's GRES plugin lists the node's allocated GPUs for the batch step)
    assert codes(script).count("shell.sbatch") == 5
    assert script.commands[-1].allocated_gpus == 4
    assert script.variables["CUDA_VISIBLE_DEVICES"] == "0,1,2,3"
    # a directive after the first command is a comment to sbatch; --env gives what the environment holds
    later = parse_shell("echo hi\n#SBATCH --nodes=2\ntorchrun --nnodes $SLURM_JOB_NUM_NODES x.py\n")
    assert later.commands[-1].argv[2] == "${SLURM_JOB_NUM_NODES}"
    given = parse_shell("#SBATCH -N 2\ntorchrun --nnodes $SLURM_JOB_NUM_NODES x.py\n", env={"SLURM_JOB_NUM_NODES": "3"})
    assert given.commands[-1].argv[2] == "3"


def test_the_length_of_an_array_of_a_commands_words_is_unknown() -> None:
    # NODES=($(cat hosts)) holds as many elements as the command prints words: not 1, whatever the text kept
    script = parse_shell(
        "NODES=($(cat hosts.txt))\npython x.py --n ${#NODES[@]}\nNODES=(a b)\npython x.py ${#NODES[@]}\n"
    )
    assert script.commands[0].argv[-1] == "$((${#NODES[@]}))"
    assert symbolic_names(script.commands[0].argv[-1])
    assert script.commands[1].argv[-1] == "2"


def test_a_chain_can_be_read_one_way_at_a_time() -> None:
    # the chain at line 1 leaves --g unknown; its ways are the if (0) and the elif (1): the else exits, so it is none
    text = (
        'if [ "$1" = a ]; then\n  s="--g 4"\nelif [ "$1" = b ]; then\n  s="--g 8"\nelse\n  exit 1\nfi\npython x.py $s\n'
    )
    script = parse_shell(text)
    assert script.chains == {1: [0, 1]}
    assert [parse_shell(text, env={f"{BRANCH}1": str(way)}).commands[-1].argv[-1] for way in (0, 1)] == ["4", "8"]


def test_plan_quantities_every_way_agrees_on_are_known() -> None:
    # layout.sh picks 4 or 8 actor GPUs by its argument (else it exits). OpenRLHF 0.9: 256 prompts × 4 = 1024
    # samples, 128 per optimizer step → 8 optimizer steps on both ways, so that is known; the data-parallel size
    # (4 or 8) and the accumulation (128 ÷ (micro 4 × DP) = 8 or 4) differ between the ways and stay unknown.
    explanation = explain(str(Path(__file__).parent / "data" / "ways" / "layout.sh"), "openrlhf@0.9.0")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.optimizer_steps_per_step) == (256, 1024, 8)
    assert plan.data_parallel_size is None and plan.grad_accum_steps is None
    assert explanation.certainty["optimizer_steps_per_step"].level == "derived"
    assert any(n.code == "shell.same-every-way" for n in explanation.notes)


def test_a_command_handed_to_a_launcher_as_an_option_is_read_as_run() -> None:
    # CMD is built with printf '%q ' (each word quoted for a later shell); the launcher gets it as --train-cmd and
    # runs it: X=2 reaches run.sh's environment, whose X=${X:-1} keeps 2; LOAD holds LOAD_DIR=/ckpt on one way of
    # an undecided if only, so that assignment's value is unknown (it reaches the command as such)
    files = {"run.sh": 'X=${X:-1}\nif [ "$X" = 2 ]; then python train.py --n 8; else python train.py --n 4; fi\n'}

    def include(path: str, cwd: str | None) -> tuple[str, str] | None:
        return (files[path], path) if path in files else None

    script = parse_shell(
        'LOAD=()\nif [ -n "$RESUME" ]; then LOAD=(LOAD_DIR=/ckpt); fi\n'
        'CMD=$(printf \'%q \' X=2 "${LOAD[@]}" bash run.sh)\nlauncher --train-cmd "$CMD"\n',
        include=include,
    )
    assert ["python", "train.py", "--n", "8"] in argvs(script)
    assert "shell.command-option" in codes(script)


def test_a_command_captured_from_a_heredoc_is_read_as_run() -> None:
    # CMD=$(cat <<EOF …): the heredoc's text, its ${N} expanded (the delimiter is not quoted) and its backslash-
    # newlines joined, is the command the launcher runs; with <<'EOF' the text stays as written ($N unexpanded)
    files = {"run.sh": "python train.py --n ${N:-4} --tag ${TAG:-none}\n"}

    def include(path: str, cwd: str | None) -> tuple[str, str] | None:
        return (files[path], path) if path in files else None

    captured = 'N=8\nCMD=$(\n  cat <<EOF\nN=${N} \\\nTAG=xy \\\nbash run.sh\nEOF\n)\nlauncher --train-cmd "$CMD"\n'
    assert ["python", "train.py", "--n", "8", "--tag", "xy"] in argvs(parse_shell(captured, include=include))
    literal = captured.replace("<<EOF", "<<'EOF'")
    assert ["python", "train.py", "--n", "4", "--tag", "xy"] not in argvs(parse_shell(literal, include=include))


@pytest.mark.parametrize(
    "sink",
    [
        "kubectl exec -i $POD -c ray-head -- /bin/bash",
        "ssh -p 22 head-node",
        "docker exec -i trainer bash -s",
        "bash",
    ],
)
def test_a_script_piped_into_a_shell_is_read(sink: str) -> None:
    # bash reads the echoed text as its script from standard input: its commands are the launch's, on the line of
    # the shell; the text passes through `tr -d '\r'` unchanged in what matters here
    script = parse_shell(
        "JOB=$(cat <<EOF\ncd /opt/app\nuv run python train.py --steps 3\nEOF\n)\n"
        f"echo \"$JOB\" | tr -d '\\r' | {sink}\n"
    )
    python = [c for c in script.commands if "python" in c.argv]
    assert len(python) == 1 and python[0].argv[-3:] == ["train.py", "--steps", "3"]
    assert python[0].line == 6 and python[0].cwd == "/opt/app"


def test_text_piped_into_another_program_is_not_a_script() -> None:
    # grep reads the text as data; bash -c runs its own argument, not the piped text
    script = parse_shell('JOB="python train.py"\necho "$JOB" | grep train\necho "$JOB" | bash -c "echo hi"\n')
    assert not any("train.py" in c.argv for c in script.commands)


def test_break_ends_an_argument_loop() -> None:
    # run.sh calls run_common.sh with `--fast -- x=1 y=2`; its `--) shift; REST=("$@"); break` ends the argument
    # loop there: the words after `--` are REST's, and no later round reads one of them as an unknown option
    called = (
        'MODE=a\nwhile [[ $# -gt 0 ]]; do\n  case "$1" in\n    --fast) MODE=fast; shift ;;\n'
        '    --) shift; REST=("$@"); break ;;\n    *) echo "unknown $1"; exit 1 ;;\n  esac\ndone\n'
        'python train.py --mode "$MODE" "${REST[@]}"\n'
    )
    script = parse_shell(
        "bash run_common.sh --fast -- x=1 y=2\n",
        include=lambda path, cwd: (called, "run_common.sh") if path == "run_common.sh" else None,
    )
    python = [c for c in script.commands if c.argv[0] == "python"]
    assert python and python[0].argv == ["python", "train.py", "--mode", "fast", "x=1", "y=2"]
    assert not [c for c in script.commands if c.argv[0] == "echo"]


def test_read_takes_a_here_documents_text_into_a_variable() -> None:
    # OpenRLHF's example idiom: `read -r -d '' NAME <<EOF` sets NAME to the whole body, expanded (the delimiter is
    # unquoted; a backslash-newline joins lines), trimmed of blanks at both ends; `$NAME` unquoted then splits
    script = parse_shell(
        "MODEL=m1\nread -r -d '' cmd <<EOF\nopenrlhf.cli.train_ppo \\\n   --pretrain $MODEL \\\n   --bf16\nEOF\n"
        "deepspeed --module $cmd\n"
    )
    assert script.commands[-1].argv == ["deepspeed", "--module", "openrlhf.cli.train_ppo", "--pretrain", "m1", "--bf16"]
    assert "shell.heredoc-skipped" not in codes(script)
    # a quoted delimiter keeps the text as written; without -d, read takes the first line only
    quoted = parse_shell(
        "read -r -d '' cmd <<'EOF'\nrun $MODEL\nEOF\nread first <<EOF\na b\nc\nEOF\necho $cmd $first\n"
    )
    assert quoted.commands[-1].argv == ["echo", "run", "$MODEL", "a", "b"]
    # a here-document no command of rlconf's reads is still noted
    assert codes(parse_shell("cat <<EOF | grep x\nx\nEOF\n")) == ["shell.heredoc-skipped"]


def test_an_array_extended_in_an_undecided_branch_keeps_what_it_held() -> None:
    # EVAL is a default the environment may override, so the `if` is undecided: CMD holds the program and its
    # options on every way, and only what the branch appends depends on the way (--eval-interval: given on some
    # ways only, so its value is unknown, naming the chain)
    script = parse_shell(
        'EVAL="${EVAL:-false}"\nCMD=(python3 train.py --rollout-batch-size 32)\n'
        'if [[ "$EVAL" == "true" ]]; then\n  CMD+=(--eval-interval 5)\nfi\n"${CMD[@]}"\n'
    )
    argv = script.commands[-1].argv
    assert argv[:4] == ["python3", "train.py", "--rollout-batch-size", "32"]
    assert argv[4:] == ["--eval-interval", "$(--eval-interval in CMD set by the if at line 3)${EVAL}"]
    # set otherwise on some way (not appended), the whole array depends on the way, as before
    other = parse_shell(
        'EVAL="${EVAL:-false}"\nCMD=(python3 train.py)\nif [[ "$EVAL" == "true" ]]; then\n  CMD=(python3 eval.py)\nfi\n'
        '"${CMD[@]}"\n'
    )
    assert other.commands[-1].argv[0].startswith("$(CMD set by the if at line 3)")


def test_a_condition_of_several_commands_is_not_decided_from_its_first() -> None:
    # `if [ "$A" = "0" ] || [ "${RANK:-}" = "0" ]`: A is known ("", so the first test is false) but RANK is the
    # environment's: bash runs the second test, so IS_HEAD may be 1 and the launch under it may run
    script = parse_shell(
        'A=""\nIS_HEAD=0\nif [ "$A" = "0" ] || [ "${RANK:-}" = "0" ]; then IS_HEAD=1; fi\n'
        'if [ "$IS_HEAD" = "1" ]; then\n  python3 -m verl.trainer.main_ppo data.train_batch_size=8\nfi\n'
    )
    assert any(c.argv[:3] == ["python3", "-m", "verl.trainer.main_ppo"] for c in script.commands)


_MANIFEST = """TMP=$(mktemp /tmp/job.XXXX.yaml)
STEPS=50
cat > "$TMP" <<END
apiVersion: batch/v1
kind: Job
spec:
  template:
    spec:
      containers:
      - name: trainer
        command: ["/bin/bash", "-c"]
        args:
        - |
          export GPUS=8
          python3 train.py --num-rollout ${STEPS} --gpus \\$GPUS
END
kubectl apply -n ns -f "$TMP"
"""


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        # a manifest written to a file, then submitted: its container's `bash -c` script runs; ${STEPS} is expanded
        # as the outer script writes the file, \$GPUS is left for the container's shell, which sets it
        (_MANIFEST, ["python3", "train.py", "--num-rollout", "50", "--gpus", "8"]),
        # the same manifest handed on standard input
        (
            _MANIFEST.replace('cat > "$TMP" <<END', "kubectl apply -f - <<END").replace(
                'kubectl apply -n ns -f "$TMP"\n', ""
            ),
            ["python3", "train.py", "--num-rollout", "50", "--gpus", "8"],
        ),
        # a container that runs the program directly
        (
            "cat > job.yaml <<'END'\nspec:\n  containers:\n  - command: [python3, train.py]\n    args: [--lr, '1']\n"
            "END\nkubectl create -f job.yaml\n",
            ["python3", "train.py", "--lr", "1"],
        ),
        # a batch script written and submitted; a quoted delimiter keeps $N for the job's own shell
        (
            "cat > job.sh <<'EOF'\n#!/bin/bash\nN=4\ntorchrun --nproc_per_node $N train.py\nEOF\nsbatch -N 1 job.sh\n",
            ["torchrun", "--nproc_per_node", "4", "train.py"],
        ),
        (
            "N=2\nsbatch --gres=gpu:2 <<EOF\n#!/bin/bash\ntorchrun --nproc_per_node $N train.py\nEOF\n",
            ["torchrun", "--nproc_per_node", "2", "train.py"],
        ),
    ],
)
def test_a_job_the_script_writes_and_submits_is_read_as_run(script: str, expected: list[str]) -> None:
    assert expected in argvs(parse_shell(script))


def test_a_written_file_nothing_runs_is_only_data() -> None:
    # cfg.txt is written but never run (cat prints it): nothing in it is a command
    script = parse_shell("cat > cfg.txt <<EOF\npython3 train.py\nEOF\ncat cfg.txt\n")
    assert ["python3", "train.py"] not in argvs(script)
    assert "shell.heredoc-written" in codes(script)


def test_a_manifest_of_an_unexpected_shape_runs_nothing_and_breaks_nothing() -> None:
    # a command given as a string (not a list), a manifest that is not YAML, and an alias bomb: read as running
    # nothing, never an error
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + k)}: &{chr(98 + k)} [*{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}, "
        f"*{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}]\n"
        for k in range(8)
    )
    for body in ("spec:\n  containers:\n  - command: python train.py\n", "spec: [unclosed\n", bomb):
        script = parse_shell(f"kubectl apply -f - <<'END'\n{body}END\n")
        assert not [c for c in script.commands if c.argv[0] == "python"]


def test_a_file_test_on_a_path_of_the_project_is_decided(tmp_path: Path) -> None:
    # `[[ -f run.py ]]` in the project: the checkout is the user's, so the file's presence decides the branch; a
    # path outside the project (/etc/x) stays undecided
    from translator.dialects.base import read_script
    from translator.notes import NoteList
    from translator.sources.files import Source

    (tmp_path / ".git").mkdir()
    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "other.py").write_text("")
    text = 'if [[ -f "exp/run.py" ]]; then E=exp/run.py; else E=examples/run_grpo.py; fi\npython "$E" --x 1\n'
    script_path = tmp_path / "run.sh"
    script_path.write_text(text)

    def entry() -> str:
        source = Source(script_path.read_text(), str(script_path), base_dir=str(tmp_path))
        return read_script(source, {}, NoteList()).commands[-1].argv[1]

    assert entry() == "examples/run_grpo.py"
    (tmp_path / "exp" / "run.py").write_text("")
    script_path.write_text(text + "# the file is there now\n")  # (a parse is kept per text)
    assert entry() == "exp/run.py"
    script_path.write_text(text.replace('"exp/run.py" ]]', '"/etc/rlconf-absent" ]]'))
    assert entry().startswith("$(E set by the if")


def _launch_of(tmp_path: Path, text: str, files: dict[str, str]) -> list[str]:
    """The last command a script in a project checkout at ``tmp_path`` runs, read with the project's files."""
    from translator.dialects.base import read_script
    from translator.notes import NoteList
    from translator.sources.files import Source

    (tmp_path / ".git").mkdir(exist_ok=True)
    for name, body in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body)
    script_path = tmp_path / "exp" / "run.sh"
    script_path.parent.mkdir(exist_ok=True)
    script_path.write_text(text)
    source = Source(text, str(script_path), base_dir=str(script_path.parent))
    return read_script(source, {}, NoteList()).commands[-1].argv


def test_a_while_read_loop_over_a_project_file_reads_each_line(tmp_path: Path) -> None:
    # overrides kept one per line in a file of the project, comments and blank lines dropped by grep -v in a
    # function; the folder is found by $(cd ... && pwd), an absolute path inside the checkout. bash runs the body
    # once per line grep prints: OVERRIDES holds both overrides.
    conf = "# topology\na.b=1\n\n  c.d=2\n"
    text = (
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\nROOT="$(cd "$HERE/.." && pwd)"\n'
        'read_conf() { [[ -f "$1" ]] && grep -vE \'^[[:space:]]*(#|$)\' "$1" || true; }\nOVERRIDES=()\n'
        'while IFS= read -r l; do [[ -n "$l" ]] && OVERRIDES+=("$l"); done < <(read_conf "$ROOT/cluster/o.conf")\n'
        'python train.py "${OVERRIDES[@]}"\n'
    )
    assert _launch_of(tmp_path, text, {"cluster/o.conf": conf}) == ["python", "train.py", "a.b=1", "  c.d=2"]


def test_a_while_read_loop_follows_read_itself(tmp_path: Path) -> None:
    # `read` without IFS= trims each line's blanks; the last line has no newline, so `read` fails there and the body
    # never sees it (x=3 is not passed)
    text = 'A=()\nwhile read -r x; do A+=("--$x"); done < ../args.txt\npython train.py "${A[@]}"\n'
    assert _launch_of(tmp_path, text, {"args.txt": "  x=1\nx=2 \nx=3"}) == ["python", "train.py", "--x=1", "--x=2"]


def test_a_while_read_loop_rlconf_cannot_follow_is_read_once(tmp_path: Path) -> None:
    # without -r, read turns backslashes into escapes (not followed); a file outside the project is the machine's
    for loop_input, files in (("../args.txt", {"args.txt": "a\\b\n"}), ("/etc/hostname", {})):
        text = f'A=()\nwhile read x; do A+=("$x"); done < {loop_input}\npython train.py "${{A[@]}}"\n'
        assert symbolic_names(_launch_of(tmp_path, text, files)[-1])


def test_a_wrapper_that_runs_its_first_argument_is_read_as_that_script() -> None:
    # boot.py ends in runpy.run_path(sys.argv[1], run_name="__main__") after setting sys.argv to the rest: the
    # launch runs train.py with those arguments. A script that only reads sys.argv[1] as data is no wrapper.
    boot = (
        "import runpy, sys\nentry = sys.argv[1]\nsys.argv = sys.argv[1:]\nrunpy.run_path(entry, run_name='__main__')\n"
    )
    files = {"boot.py": boot, "plain.py": "import sys\nprint(sys.argv[1])\n"}

    def include(path: str, cwd: str | None) -> tuple[str, str] | None:
        return (files[path], path) if path in files else None

    assert argvs(parse_shell("python boot.py train.py --lr 1\n", include=include)) == [
        ["python", "train.py", "--lr", "1"]
    ]
    assert argvs(parse_shell("python plain.py train.py\n", include=include)) == [["python", "plain.py", "train.py"]]


def test_an_array_an_undecided_chain_left_unknown_stays_one_unknown_word_when_appended_to() -> None:
    # O is set in one branch of an undecided if and empty on the other way: unknown. O+=(c=3) then holds that
    # unknown word and c=3; the unknown word is not split into the words of its marker
    script = parse_shell('O=()\nif [[ -n "$X" ]]; then\n  O=(--a 1)\nfi\nO+=("c=3")\npython x.py "${O[@]}"\n')
    argv = script.commands[-1].argv
    assert argv[-1] == "c=3" and all(" " not in word or word.startswith("$(") for word in argv)
    assert not any(word in ("set", "by", "the") for word in argv)


def test_a_script_exec_runs_leaves_its_variables_as_the_last() -> None:
    # `exec launch.sh` replaces the script: what launch.sh sets (COMMAND) is what the script ends with
    files = {"./launch.sh": 'export COMMAND="uv run examples/run_grpo.py --config c.yaml"\nsbatch ray.sub\n'}

    def include(path: str, cwd: str | None) -> tuple[str, str] | None:
        return (files[path], path) if path in files else None

    script = parse_shell("export N=1\nexec ./launch.sh\n", include=include)
    assert script.variables["COMMAND"] == "uv run examples/run_grpo.py --config c.yaml"
    assert "COMMAND" not in parse_shell("export N=1\nbash ./launch.sh\n", include=include).variables


def test_read_splits_a_here_string_into_an_array_at_ifs() -> None:
    # `IFS=, read -ra GPUS <<< "$CUDA_VISIBLE_DEVICES"` (bash(1) read: the words split at IFS, -a into an array):
    # under #SBATCH --gres=gpu:2 Slurm lists 2 GPUs, so ${#GPUS[@]} is 2; with IFS's blanks, runs of them are one
    # separator; without the allocation the variable is the environment's and the array's length is unknown
    text = (
        "#!/bin/bash\n#SBATCH --gres=gpu:2\nIFS=',' read -ra GPUS <<< \"${CUDA_VISIBLE_DEVICES}\"\n"
        'read -r -a WORDS <<< "a  b c"\npython x.py --n ${#GPUS[@]} --w ${#WORDS[@]}\n'
    )
    assert parse_shell(text).commands[-1].argv[-4:] == ["--n", "2", "--w", "3"]
    unknown = parse_shell(text.replace("#SBATCH --gres=gpu:2\n", "")).commands[-1].argv
    assert unknown[-3] == "$((${#GPUS[@]}))" and symbolic_names(unknown[-3])


def test_a_substitution_printing_a_project_file_reads_its_text() -> None:
    # $(cat F), $(< F), $(head -n 1 F) print the file; tr -d '[:space:]' drops its blanks; $(...) cuts the trailing
    # newlines. A file the project does not hold, or one at an absolute path (the machine's), stays unknown.
    files = {"cluster": "h100\nspare\n", "gpus.txt": " 4 \n"}

    def include(path: str, cwd: str | None, inside: bool = False) -> tuple[str, str] | None:
        return (files[path], path) if path in files else None

    script = parse_shell(
        'A=$(cat cluster)\nB="$(< gpus.txt)"\nC=$(head -n 1 cluster)\nD="$(tr -d \'[:space:]\' < gpus.txt)"\n'
        "E=$(cat absent)\nF=$(cat /etc/hostname)\n",
        include=include,
    )
    assert [script.variables[name] for name in "ABCD"] == ["h100\nspare", " 4 ", "h100", "4"]
    assert all(symbolic_names(script.variables[name]) for name in "EF")
    assert codes(script).count("shell.file-read") == 4


def test_an_environment_default_that_is_never_empty_decides_an_emptiness_test() -> None:
    # ENTRY=${ENTRY:-a.py}: whatever the environment holds, `:-` leaves ENTRY non-empty, so `[[ -z "$ENTRY" ]]` is
    # false and the script runs a.py (or the environment's value); MODE=${MODE:-} may be empty: undecided, both read
    script = parse_shell(
        'export ENTRY="${ENTRY:-a.py}"\nif [[ -z "${ENTRY:-}" ]]; then ENTRY=b.py; fi\npython "$ENTRY"\n'
        'MODE=${MODE:-}\nif [ -n "$MODE" ]; then N=2; else N=1; fi\nif [ -z "$(hostname)" ]; then exit 1; fi\n'
        'python x.py --n "$N"\n'
    )
    assert script.commands[0].argv == ["python", "a.py"]
    assert symbolic_names(script.commands[-1].argv[-1])


def test_a_redirection_to_nothing_stops_bash() -> None:
    # `python x.py >` at the end of a line: bash reports "syntax error near unexpected token `newline'" and stops
    # (exit 2); a redirection with its file, a here-string, a process substitution and 2>&1 are fine
    with pytest.raises(ConfigError, match=r"syntax error near unexpected token `newline'") as caught:
        parse_shell("export A=1\npython x.py --n 2 >\n")
    assert caught.value.line == 2
    script = parse_shell("python x.py > log 2>&1\ncat <<< word\ndiff <(a) <(b)\n")
    assert script.commands[0].argv == ["python", "x.py"]


def test_a_merge_conflict_left_in_a_script_stops_bash() -> None:
    # `<<<<<<< HEAD` is a here-string to bash, then a syntax error: the file stops being read there (lines 2-6)
    text = "ARGS=(\n<<<<<<< HEAD\n   --rotary-base 5000000\n=======\n   --rotary-base 1000000\n>>>>>>> origin/main\n)\n"
    with pytest.raises(ConfigError, match=r"lines 2-6 hold an unresolved git merge conflict") as stop:
        parse_shell(text, source="models.sh")
    assert (stop.value.file, stop.value.line) == ("models.sh", 2)
    # a line of seven '=' alone (a comment banner's cousin) is no conflict
    assert parse_shell("echo hi\n=======\n").commands[0].argv == ["echo", "hi"]


def test_a_script_sourced_from_the_authors_checkout_is_the_projects_file(tmp_path: Path) -> None:
    # `source /root/repo/scripts/models/m.sh` names the project's scripts/models/m.sh below the author's checkout,
    # which this machine lacks: the project's file is read (its MODEL_ARGS reach the launch)
    from tests.conftest import write_project

    root = write_project(
        tmp_path,
        {
            "scripts/models/m.sh": "MODEL_ARGS=(--num-layers 2)\n",
            "agent/run.sh": "source /root/repo/scripts/models/m.sh\npython3 -m pkg.train ${MODEL_ARGS[@]}\n",
        },
    )
    from translator.dialects.base import script_files
    from translator.sources.files import read_source

    source = read_source(str(root / "agent" / "run.sh"))
    script = parse_shell(source.text, source=source.name, include=script_files(source))
    assert script.commands[-1].argv == ["python3", "-m", "pkg.train", "--num-layers", "2"]


def test_a_sourced_file_sees_the_callers_name_as_0_and_builds_a_path_with_basename_and_sed() -> None:
    # tests/run-a.sh sources common.env, which names the experiment after $0 (the caller, not common.env) and
    # turns its folder into the config's with sed: examples/recipes/run-a.yaml
    common = (
        'EXP=$(basename $0 .sh)\nCONFIG=$(echo tests/${EXP}.yaml | sed "s#tests#examples/recipes#")\n'
        'ALL=$(echo a-a-a | sed "s/a/b/g")\nODD=$(echo a.b | sed "s/a/\\\\U&/")\n'
    )

    def include(path: str, cwd: str | None) -> tuple[str, str] | None:
        return (common, "tests/common.env") if path.endswith("common.env") else None

    script = parse_shell(
        'source tests/common.env\npython train.py --config "$CONFIG" --x "$ALL" --y "$ODD"\n',
        source="tests/run-a.sh",
        include=include,
    )
    argv = script.commands[-1].argv
    # GNU sed's case conversion (\U) is not imitated: the value stays unknown
    assert argv[2:6] == ["--config", "examples/recipes/run-a.yaml", "--x", "b-b-b"] and symbolic_names(argv[7])


@pytest.mark.parametrize(
    ("condition", "taken"),
    [
        ('[ -n "$A" ] && [ "$A" != "" ]', True),  # A=x: both true
        ('[ -n "$B" ] && [ "$B" != "" ]', False),  # B empty: the first is false, so is the whole
        ('[ -z "$A" ] || [ "$A" = x ]', True),
        ('[ "$A" = x ] || [ "$U" = z ]', True),  # true || anything: bash never runs the second test
        ('[ "$B" = x ] && [ "$U" = z ]', False),  # false && anything
        ('[ "$A" = y ] || [ "$U" = z ]', None),  # false || (U never set): undecided, both branches read
        ('[ "$A" = x ] && [ "$A" = x ] || [ "$U" = z ]', True),  # left to right: (true && true) || ?
    ],
)
def test_a_condition_of_tests_joined_by_and_or_is_decided_left_to_right(condition: str, taken: bool | None) -> None:
    script = parse_shell(f"A=x\nB=\nV=no\nif {condition}; then\n  V=yes\nfi\npython t.py --v $V\n", source="r.sh")
    value = script.commands[-1].argv[-1]
    assert symbolic_names(value) != [] if taken is None else value == ("yes" if taken else "no"), value
