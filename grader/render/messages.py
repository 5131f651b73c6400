# ruff: noqa: E501  (catalogue text reads best unwrapped)
"""The UI catalogue: every UI and CLI string, zh and en side by side (``id: {"zh", "en"}``).

Texts about one exercise or one stand-in are not here: they sit beside it and are registered
by ``grader.judge.texts`` (titles, twin names, mutant descriptions and hints, and the answer
keys' concept summaries). ``tests/unit/grader/render/test_catalog.py`` holds both languages
to the same ids and the same ``{parameters}``.
"""

from grader.render.messages_inbox import INBOX_MESSAGES

MESSAGES: dict[str, dict[str, str]] = {
    # -- errors (exit 2 / 3) -------------------------------------------------------------
    "error.usage": {"zh": "用法错误：{detail}", "en": "Usage error: {detail}"},
    "error.no_course_root": {
        "zh": "在 {start} 及其上级目录中找不到 exercises/ 文件夹。请在课程根目录运行，或用 --root DIR 指定。",
        "en": "No exercises/ folder in {start} or any folder above it. Run grader from the course root, or pass --root DIR.",
    },
    "error.unknown_exercise": {
        "zh": "没有练习 {given}。可用的练习：{known}。运行 grader list 查看全部。",
        "en": "There is no exercise {given}. Known exercises: {known}. Run grader list to see them all.",
    },
    "error.unknown_exercise_suggest": {
        "zh": "没有练习 {given}。你是不是想输入 {suggestion}？",
        "en": "There is no exercise {given}. Did you mean {suggestion}?",
    },
    "error.submission_not_found": {
        "zh": "找不到要检查的文件 {path}。请先创建它（练习说明见 exercises/{exercise}/README.md），或用 --path FILE 指定文件。",
        "en": "File to check not found: {path}. Create it first (the statement is in exercises/{exercise}/README.md), or pass --path FILE.",
    },
    "error.submission_unreadable": {
        "zh": "无法读取 {path}：{reason}。请确认它是 UTF-8 编码的文本文件。",
        "en": "Cannot read {path}: {reason}. Make sure it is a UTF-8 text file.",
    },
    "error.submission_symlink": {
        "zh": "{path} 是一个符号链接：请提交文件本身（把文件复制到这里，而不是链接到别处）。",
        "en": "{path} is a symbolic link; hand in the file itself (copy it there instead of linking to it).",
    },
    "error.submission_linked_folder": {
        "zh": "{path} 路径上的文件夹 {link} 是一个符号链接：请把文件本身放在真实的文件夹里提交（或者传入真实路径）。",
        "en": "The folder {link} on the path to {path} is a symbolic link; hand in the file itself, in a real folder (or pass the real path).",
    },
    "error.submission_not_regular": {
        "zh": "{path} 不是普通文件（而是目录、FIFO、套接字或设备）：请提交文件本身。",
        "en": "{path} is not a regular file (a directory, FIFO, socket or device); hand in the file itself.",
    },
    "error.unsupported_submission": {
        "zh": "{path} 不能用于这个练习：需要 {expected} 文件。",
        "en": "{path} cannot be used for this exercise: it needs a {expected} file.",
    },
    "error.syntax": {
        "zh": "{path} 第 {line} 行有语法错误：{detail}。请先修正它再检查。",
        "en": "Syntax error in {path}, line {line}: {detail}. Fix it, then check again.",
    },
    "error.syntax_cell": {
        "zh": "{path} 笔记本第 {cell} 个单元格（从上往下数，所有单元格都算）第 {line} 行有语法错误：{detail}。请先修正它再检查。",
        "en": "Syntax error in {path}, notebook cell {cell} (counting every cell from the top), line {line}: {detail}. Fix it, then check again.",
    },
    "error.invalid_notebook": {
        "zh": "{path} 不是有效的 Jupyter 笔记本：{reason}。",
        "en": "{path} is not a valid Jupyter notebook: {reason}.",
    },
    "error.empty_notebook": {
        "zh": "{path} 里没有可检查的{what}单元格。",
        "en": "{path} has no {what} cells to check.",
    },
    "error.internal": {
        "zh": "评分器内部错误：{detail}。这不是你的问题，请把这条信息报告给助教。",
        "en": "Internal grader error: {detail}. This is not your fault; please report this message to the course staff.",
    },
    "error.answer_key": {
        "zh": "无法读取答案要点文件 {path}：{detail}。请修正该文件（格式见 grader/judge/exercises/answer_key.py），然后重试。",
        "en": "Cannot read the answer key {path}: {detail}. Fix the file (its format is in grader/judge/exercises/answer_key.py), then try again.",
    },
    "error.texts_file": {
        "zh": "无法读取文本文件 {path}：{detail}。请修正该文件（格式见 grader/judge/texts.py），然后重试。",
        "en": "Cannot read the texts file {path}: {detail}. Fix the file (its format is in grader/judge/texts.py), then try again.",
    },
    "error.runner": {
        "zh": "无法在沙箱中运行代码：{detail}。这不是你的问题，请把这条信息报告给助教。",
        "en": "Could not run the code in the sandbox: {detail}. This is not your fault; please report this message to the course staff.",
    },
    "error.submission": {
        "zh": "要检查的文件无法按现状评分。请按练习的 README.md 修改后再检查。",
        "en": "The file to check cannot be graded as it is. Fix it (see the exercise README.md), then check again.",
    },
    "error.solution_marker": {
        "zh": "{path} 第 {line} 行：{detail}。请修正答案标记，然后重新运行 grader build-starters。",
        "en": "{path}, line {line}: {detail}. Fix the solution markers, then run grader build-starters again.",
    },
    "check.input": {"zh": "练习编号和要检查的文件", "en": "the exercise id and the file to check"},
    "report.normalized_id": {
        "zh": "{exercise}（输入为 {given}）",
        "en": "{exercise} (from {given})",
    },
    "report.unknown_exercise": {"zh": "未知练习", "en": "unknown exercise"},
    "report.input_error": {"zh": "无法按现状检查", "en": "cannot be checked as it is"},
    "report.internal_error": {"zh": "评分器内部错误", "en": "internal grader error"},
    "error.no_solutions": {
        "zh": "{root} 中没有 solutions/ 文件夹：无法生成起始文件。请在教师版课程目录中运行，或用 --root DIR 指定。",
        "en": "No solutions/ folder in {root}: nothing to build starters from. Run it in the instructors' course tree, or pass --root DIR.",
    },
    "error.interrupted": {"zh": "已中断。", "en": "Interrupted."},
    # -- check titles ---------------------------------------------------------------------
    "check.started": {"zh": "已开始作答", "en": "answer started"},
    "check.runs_cleanly": {
        "zh": "在真实的 ticketflow 上运行无错误",
        "en": "runs without error against the real ticketflow",
    },
    "check.output": {"zh": "输出与要求的表格一致", "en": "output matches the required table"},
    "check.calls": {"zh": "确实调用了要测试的函数", "en": "calls the function under test"},
    "check.mutant": {
        "zh": "能发现错误实现：{arg}",
        "en": "catches the wrong implementation: {arg}",
    },
    "check.concept": {"zh": "评分要点：{arg}", "en": "rubric point: {arg}"},
    "check.length": {"zh": "回答长度", "en": "answer length"},
    # -- code: not started / real run ------------------------------------------------------
    "code.not_started": {
        "zh": "{file} 还是起始模板，尚未开始作答。按照 README.md 完成探针后再检查。",
        "en": "{file} is still the starter template: not started yet. Complete the probe as README.md asks, then check again.",
    },
    "run.ok": {
        "zh": "探针在真实实现上运行结束，退出码 0。",
        "en": "The probe ran to the end against the real implementation, exit code 0.",
    },
    "run.timeout": {
        "zh": "探针运行超过 {seconds} 秒被终止。检查是否有死循环或在等待外部服务。",
        "en": "The probe was stopped after {seconds} s. Look for an endless loop or a wait on an outside service.",
    },
    "run.limit": {
        "zh": "探针超出了资源限制（{limit}）被终止。",
        "en": "The probe was stopped: it exceeded a resource limit ({limit}).",
    },
    "run.signal": {
        "zh": "探针被信号 {signal} 终止。",
        "en": "The probe was killed by signal {signal}.",
    },
    "run.uncaught": {
        "zh": "探针在真实实现上失败：第 {line} 行抛出 {type}: {message}",
        "en": "The probe fails against the real implementation: {type}: {message} (line {line})",
    },
    "run.uncaught_cell": {
        "zh": "探针在真实实现上失败：笔记本第 {cell} 个单元格第 {line} 行抛出 {type}: {message}",
        "en": "The probe fails against the real implementation: {type}: {message} (notebook cell {cell}, line {line})",
    },
    "report.not_judged": {
        "zh": "其余 {count} 项没有评判（包括每一个错误实现）",
        "en": "{count} more checks not judged (every wrong implementation among them)",
    },
    "followon.stopped_line": {
        "zh": "没有评判：探针在真实实现上运行到第 {line} 行就停止了（{type}），没有走到这一项。请先修正它。",
        "en": "Not judged: against the real implementation the probe stopped at line {line} ({type}), so this was not checked. Fix that first.",
    },
    "followon.stopped_cell": {
        "zh": "没有评判：探针在真实实现上运行到笔记本第 {cell} 个单元格第 {line} 行就停止了（{type}），没有走到这一项。请先修正它。",
        "en": "Not judged: against the real implementation the probe stopped at notebook cell {cell}, line {line} ({type}), so this was not checked. Fix that first.",
    },
    "followon.ended": {
        "zh": "没有评判：探针在真实实现上没有正常结束（{outcome}），所以这一项没有检查。请先修正它。",
        "en": "Not judged: against the real implementation the probe ended with {outcome}, so this was not checked. Fix that first.",
    },
    "outcome.uncaught_cell": {
        "zh": "笔记本第 {cell} 个单元格第 {line} 行抛出 {type}: {message}",
        "en": "{type}: {message} (notebook cell {cell}, line {line})",
    },
    "summary.answer_cells_only": {
        "zh": "{summary}只运行了带 answer 标签的代码单元格（笔记本第 {cells} 个单元格），其余单元格没有运行。",
        "en": "{summary} Only the code cells tagged answer were run (notebook cells {cells}); the others were left out.",
    },
    "run.exit_code": {
        "zh": "探针以退出码 {code} 结束（应为 0）。",
        "en": "The probe exited with code {code} (expected 0).",
    },
    "hint.assertion_on_real": {
        "zh": "真实的 ticketflow 是正确的：断言失败说明你写的期望值不对，或调用方式不对。对照 README.md 里的用例再检查。",
        "en": "The real ticketflow is correct: a failing assertion means your expected value (or the way you call it) is wrong. Compare with the cases in README.md.",
    },
    "hint.not_implemented": {
        "zh": "把 TODO 那段替换成你自己的代码。",
        "en": "Replace the TODO part with your own code.",
    },
    "hint.sandbox_module": {
        "zh": "评分沙箱里只能导入本练习需要的 ticketflow 模块：{modules}。你的探针导入了 {module}：从上面这些模块里导入你需要的名字。",
        "en": "The grader's sandbox provides only the ticketflow modules this exercise needs: {modules}. Your probe imports {module}: import what you need from one of those.",
    },
    "hint.no_such_module": {
        "zh": "ticketflow 里没有模块 {module}：检查这一行 import 的拼写，和 README.md 里的 import 对照。",
        "en": "ticketflow has no module {module}: check the spelling of this import against the imports in README.md.",
    },
    "hint.import_error": {
        "zh": "检查 import 的模块名和名称是否与 README.md 中一致（例如 ticketflow.workers.tasks）。",
        "en": "Check the module and names you import against README.md (e.g. ticketflow.workers.tasks).",
    },
    "hint.crash": {
        "zh": "先在本地运行 python {file} 复现这个错误。",
        "en": "Run python {file} locally to reproduce the error.",
    },
    "hint.assert_always_true": {
        "zh": 'Python 在编译你的探针时警告：{place}的断言永远为真（SyntaxWarning: assertion is always true）。assert (条件, "说明") 断言的是一个非空元组，永远不会失败；去掉括号，写成 assert 条件, "说明"。',
        "en": 'Python warned when compiling your probe: the assertion at {place} is always true (SyntaxWarning: assertion is always true). assert (condition, "message") asserts a non-empty tuple, which never fails; drop the parentheses: assert condition, "message".',
    },
    "hint.discarded_runner": {
        "zh": "你的探针在{place}调用了 {call}，却丢掉了它的结果：测试失败时它只是返回失败，探针仍以退出码 0 结束。把结果交给 sys.exit，例如 sys.exit(pytest.main([...]))，或者直接用 assert 写检查。",
        "en": "Your probe calls {call} at {place} and throws its result away: when tests fail it only returns the failure, and the probe still exits 0. Pass the result to sys.exit, e.g. sys.exit(pytest.main([...])), or write the checks as plain asserts.",
    },
    "advice.place_line": {"zh": "第 {line} 行", "en": "line {line}"},
    "advice.place_cell": {
        "zh": "第 {cell} 个单元格第 {line} 行",
        "en": "cell {cell}, line {line}",
    },
    "hint.crash_cell": {
        "zh": "在 JupyterLab 里打开 {file}，重启内核并从头运行全部单元格（Restart Kernel and Run All），在第 {cell} 个单元格第 {line} 行复现这个错误。",
        "en": "Open {file} in JupyterLab and restart the kernel and run all cells (Restart Kernel and Run All): the error happens at cell {cell}, line {line}.",
    },
    "hint.exit_code": {
        "zh": "不要调用 sys.exit() 返回非 0；让断言失败来表示错误。",
        "en": "Do not call sys.exit() with a non-zero code; let a failing assertion signal a problem.",
    },
    # -- code: output ----------------------------------------------------------------------
    "output.ok": {
        "zh": "输出中按顺序包含要求的 {count} 行。",
        "en": "The output contains the {count} required lines, in order.",
    },
    "output.missing": {
        "zh": "输出中缺少第 {index} 行要求的内容：“{expected}”。",
        "en": 'Required line {index} is missing from the output: "{expected}".',
    },
    "hint.output": {
        "zh": "每个用例打印一行：异常类型名、retries_so_far、retry、countdown_seconds、dead_letter，用空格分隔。",
        "en": "Print one line per case: the exception type name, retries_so_far, retry, countdown_seconds, dead_letter, separated by spaces.",
    },
    # -- code: observed calls --------------------------------------------------------------
    "calls.ok": {"zh": "观察到了要求的调用。", "en": "The required calls were observed."},
    "calls.unreadable": {
        "zh": "无法读取记录下来的调用（记录格式不对：探针是否往评分器的通道里写了东西？）。",
        "en": "The recorded calls could not be read (malformed records: did the probe write to the grader's channel?).",
    },
    "calls.policy.none": {
        "zh": "探针从未调用 BoundedRetryPolicy.decision（评分器观察的是真实的方法：替换、修改或绕过它的探针什么也没有测试）。",
        "en": "The probe never called BoundedRetryPolicy.decision (the grader watches the real method: a probe that replaces, patches or bypasses it tests nothing).",
    },
    "calls.policy.config": {
        "zh": "探针使用的策略参数是 max_retries={max_retries}, base_delay_seconds={base_delay_seconds}；要求是 max_retries=2, base_delay_seconds=5。",
        "en": "The probe's policy has max_retries={max_retries}, base_delay_seconds={base_delay_seconds}; the exercise asks for max_retries=2, base_delay_seconds=5.",
    },
    "calls.policy.missing": {
        "zh": "探针没有检查这些用例（异常类型 retries_so_far）：{cases}。",
        "en": "The probe does not check these cases (exception type, retries_so_far): {cases}.",
    },
    "calls.apply.too_few": {
        "zh": "探针只调用了 {count} 次 apply_notification_once，至少需要 {needed} 次。",
        "en": "The probe called apply_notification_once {count} time(s); it needs at least {needed}.",
    },
    "calls.apply.distinct_events": {
        "zh": "探针投递了 {count} 个不同的事件：要把同一个 EventEnvelope（同一个 event_id）投递两次。",
        "en": "The probe delivered {count} different events: deliver the same EventEnvelope (same event_id) twice.",
    },
    "calls.apply.results": {
        "zh": "同一事件两次投递的返回值是 {results}，应为 [True, False]。",
        "en": "Two deliveries of the same event returned {results}; expected [True, False].",
    },
    "calls.atomic.no_failure": {
        "zh": "没有一次 apply_notification_once 调用抛出异常：要在 receipt 和业务任务之间注入一次失败（例如 engine 的 before_cursor_execute 监听器在 INSERT INTO business_tasks 时抛出）。",
        "en": "No call to apply_notification_once raised: inject a failure between the receipt and the business task (e.g. an engine before_cursor_execute listener that raises on INSERT INTO business_tasks).",
    },
    "calls.atomic.no_redelivery": {
        "zh": "注入失败之后，没有一次重投返回 True。",
        "en": "After the injected failure, no redelivery returned True.",
    },
    "calls.atomic.no_duplicate": {
        "zh": "成功重投之后，没有再投递一次来确认重复投递返回 False。",
        "en": "After the successful redelivery, the probe did not deliver once more to see a duplicate return False.",
    },
    # -- code: mutants ---------------------------------------------------------------------
    "mutant.killed": {
        "zh": "探针发现了这个错误实现（{mutant}）。",
        "en": "The probe catches this wrong implementation ({mutant}).",
    },
    "mutant.survived": {
        "zh": "你的探针在错误实现下仍然通过（退出码 0）：{mutant}。",
        "en": "Your probe still passes (exit code 0) on the wrong implementation: {mutant}.",
    },
    "mutant.skipped": {
        "zh": "没有评估：探针必须先在真实实现上通过，才能说明它能发现错误实现。",
        "en": "Not evaluated: the probe must pass against the real implementation first; only then does failing against a wrong one mean something.",
    },
    # -- code: twins, outcomes, isolation -------------------------------------------------
    "check.equivalents": {
        "zh": "依赖行为，而不是代码的写法",
        "en": "depends on behaviour, not on how the code is written",
    },
    "twin.ok": {
        "zh": "探针在 {count} 个行为相同、写法不同的正确实现上也通过了。",
        "en": "The probe also passes on {count} correct implementations written differently.",
    },
    "twin.skipped": {
        "zh": "没有评估：探针必须先在真实实现上通过。",
        "en": "Not evaluated: the probe must pass on the real implementation first.",
    },
    "twin.failed": {
        "zh": "探针在一个写法不同但同样正确的实现上失败了（{twin}）：{outcome}。它的结果取决于代码是怎么写的，而不是代码做了什么。",
        "en": "The probe fails on a correct implementation written differently ({twin}): {outcome}. Its result depends on how the code is written, not on what it does.",
    },
    "hint.twin": {
        "zh": "只通过调用函数、检查它的返回值和它留在数据库里的状态来判断对错。不要检查字节码、函数对象、源代码或具体发出的 SQL 语句，也不要和从磁盘加载的副本比较。",
        "en": "Judge only by calling the function and checking what it returns and what it leaves in the database. Do not inspect bytecode, function objects, source code or the exact SQL statements sent, and do not compare with a copy loaded from disk.",
    },
    "mutant.not_credible": {
        "zh": "不计分：探针在写法不同的正确实现上也会失败，所以它在这里失败说明不了什么。",
        "en": "Not counted: the probe also fails on a correct implementation written differently, so failing here proves nothing.",
    },
    "mutant.survived_unnoticed": {
        "zh": "你的探针在错误实现下仍然通过（退出码 0）：{mutant}。可它其实得到了不同的答案：第 {call} 次调用（{question}）真实实现{real}，这个错误实现{wrong}。请断言这个值；如果已经断言了，确认断言真的能失败（没有被 try/except 吞掉，比较的对象的 __eq__ 没有说谎，也没有 os._exit(0) 或 atexit 钩子）。",
        "en": "Your probe still passes (exit code 0) on the wrong implementation: {mutant}. Yet it got a different answer: at call {call} ({question}) the real implementation {real}, this one {wrong}. Assert that value; if you already do, make sure the assertion can fail (not caught by try/except, not comparing an object whose __eq__ lies, no os._exit(0) or atexit hook).",
    },
    "answer.returned": {"zh": "返回 {value}", "en": "returned {value}"},
    "answer.raised": {"zh": "抛出 {error}", "en": "raised {error}"},
    "outcome.uncaught": {
        "zh": "第 {line} 行抛出 {type}: {message}",
        "en": "{type}: {message} (line {line})",
    },
    "outcome.exit_code": {"zh": "退出码 {code}", "en": "exit code {code}"},
    "outcome.timeout": {"zh": "运行超过 {seconds} 秒被终止", "en": "stopped after {seconds} s"},
    "outcome.limit": {
        "zh": "超出资源限制（{limit}）",
        "en": "a resource limit was exceeded ({limit})",
    },
    "outcome.signal": {"zh": "被信号 {signal} 终止", "en": "killed by signal {signal}"},
    "report.weak_isolation": {
        "zh": "注意：这次检查没有使用隔离沙箱（rlimits 模式）：探针可以读取参考答案和评分器的文件。用来自查没有问题，但不能作为正式评分。",
        "en": "Note: this check ran without the isolating sandbox (rlimits mode): a probe could read the solutions and the grader's files. Fine for checking your own work; not for official grading.",
    },
    "report.portable_isolation": {
        "zh": "注意：这次检查在可移植模式下运行（每次运行一个新的 Python 进程，没有隔离沙箱）：结果和正式评分用的是同一套判定，但不是正式评分。",
        "en": "Note: this check ran in portable mode (a fresh Python process per run, no isolating sandbox): the verdicts are those of official grading, but this is not official grading.",
    },
    "error.isolation_unknown": {
        "zh": "GRADER_ISOLATION={given} 无效：可选 auto、namespaces、rlimits 或 portable。",
        "en": "GRADER_ISOLATION={given} is not valid: use auto, namespaces, rlimits or portable.",
    },
    "error.portable_not_official": {
        "zh": "GRADER_ISOLATION=portable 只能用于学生自己的检查（grader check、check()）；正式评分需要隔离沙箱（namespaces 模式）。",
        "en": "GRADER_ISOLATION=portable is only for a student's own check (grader check, check()); official grading needs the isolating sandbox (namespaces mode).",
    },
    "error.isolation_unavailable": {
        "zh": "GRADER_ISOLATION=namespaces 要求隔离沙箱，但这台机器上不可用：{reason}。",
        "en": "GRADER_ISOLATION=namespaces asks for the isolating sandbox, which is not available here: {reason}.",
    },
    "turn.held": {
        "zh": "正在排队：你的另一个评分程序（进程 {pid}：{command}）正在沙箱中运行代码。同一用户的代码须轮流运行，每次只能运行一个；它这次运行结束后，这里会自动继续。按 Ctrl-C 可停止本次操作。",
        "en": "Queued: another grader of yours (process {pid}: {command}) is running code in the sandbox, and your runs take turns, one at a time. This one goes on as soon as that run ends; Ctrl-C stops this one.",
    },
    "turn.stopped": {
        "zh": "正在等待进程 {pid}（{command}）：它在轮到它运行时被暂停了（可能是按了 Ctrl-Z）。请在它所在的终端输入 fg 让它继续（或执行 kill -CONT {pid}），这里随后就会继续；按 Ctrl-C 可停止本次操作。",
        "en": "Waiting for process {pid} ({command}): it was stopped (Ctrl-Z?) while it had the turn to run code. Resume it (fg in its terminal, or kill -CONT {pid}) and this one goes on; Ctrl-C stops this one.",
    },
    "turn.unknown": {
        "zh": "正在排队：你的另一个评分程序正在沙箱中运行代码。同一用户的代码须轮流运行，每次只能运行一个；它这次运行结束后，这里会自动继续。按 Ctrl-C 可停止本次操作。",
        "en": "Queued: another grader of yours is running code in the sandbox, and your runs take turns, one at a time. This one goes on as soon as that run ends; Ctrl-C stops this one.",
    },
    "error.weak_isolation": {
        "zh": "正式评分需要隔离沙箱（namespaces 模式），这次检查用的是 {isolation} 模式。",
        "en": "Official grading needs the isolating sandbox (namespaces mode); this check ran in {isolation} mode.",
    },
    # -- prose -----------------------------------------------------------------------------
    "prose.not_started": {
        "zh": "{file} 还是起始模板，尚未开始作答。",
        "en": "{file} is still the starter template: not started yet.",
    },
    "prose.too_short": {
        "zh": "回答只有 {chars} 个非空白字符（至少需要 {needed} 个）：请把每种情况都解释清楚。",
        "en": "The answer has only {chars} non-blank characters (at least {needed} needed): explain every case.",
    },
    "prose.length_ok": {
        "zh": "回答长度足够（{chars} 个非空白字符）。",
        "en": "The answer is long enough ({chars} non-blank characters).",
    },
    "concept.found": {
        "zh": "评分规则找到了这个要点（{section}）。",
        "en": "The rubric found this point ({section}).",
    },
    "concept.missing": {
        "zh": "评分规则没有找到这个要点（{section}）。这是给助教的参考，不是结论。",
        "en": "The rubric did not find this point ({section}). A note for the instructor, not a verdict.",
    },
    "concept.negated": {
        "zh": "评分规则只找到了这个要点的否定说法（“不会”“没有”“not” …）（{section}）：请助教确认回答是否说的是相反的意思。",
        "en": 'The rubric found this point only denied ("not", "不会" …) ({section}): the instructor should check whether the answer says the opposite.',
    },
    "concept.contradicts": {"zh": "相反：{sentence}", "en": "contradicts: {sentence}"},
    "concept.decided": {"zh": "依据：{sentence}", "en": "from: {sentence}"},
    "concept.contradicted": {
        "zh": "评分规则认为这句话说的是这个要点的反面（{section}），不计分：“{sentence}”。请助教确认。",
        "en": 'The rubric reads this sentence as stating the opposite of this point ({section}), so it earns nothing: "{sentence}". The instructor should check.',
    },
    "concept.denied": {
        "zh": "评分规则读到回答否定了这个要点（“不会发生”“是误解”“a myth” …）（{section}），不计分：“{sentence}”。请助教确认。",
        "en": 'The rubric reads this point as denied by the answer ("cannot happen", "a myth", "不会发生" …) ({section}), so it earns nothing: "{sentence}". The instructor should check.',
    },
    "concept.attributed": {
        "zh": "评分规则读到这个要点是借别人之口说的（“有人说”“有人担心”“people say” …）（{section}），不计分：“{sentence}”。请助教确认。",
        "en": 'The rubric reads this point as attributed to others ("people say", "some think", "有人说" …) ({section}), so it earns nothing: "{sentence}". The instructor should check.',
    },
    "concept.stuffed": {
        "zh": "评分规则只在关键词罗列或重复的句子里找到这个要点的词，没有找到解释它的句子（{section}）。",
        "en": "The rubric found the words of this point only in a keyword list or a repeated sentence, not in a sentence that explains it ({section}).",
    },
    "concept.not_judged": {
        "zh": "未评：评分在工作量上限内没有读到这个要点。",
        "en": "Not judged: scoring stopped at its limit of work before reaching this point.",
    },
    "prose.capped": {
        "zh": "只对回答的前 {chars} 个字符评分，其余部分评分规则没有读。",
        "en": "Only the first {chars} characters of the answer were scored; the rest was not read by the rubric.",
    },
    "prose.timed_out": {
        "zh": "评分到达工作量上限而停止；没有读到的要点标为“未评”。",
        "en": 'Scoring stopped at its limit of work; the points it had not reached are marked "not judged".',
    },
    "check.scope": {"zh": "评分覆盖的范围", "en": "part of the answer scored"},
    "rubric.section.whole": {"zh": "回答的任意位置", "en": "anywhere in the answer"},
    # -- exercises ---------------------------------------------------------------------------
    # -- summaries, statuses, labels ----------------------------------------------------------
    "summary.passed": {"zh": "全部检查通过。", "en": "All checks passed."},
    "summary.failed": {"zh": "{failed} 项检查未通过。", "en": "{failed} check(s) failed."},
    "summary.needs_review": {
        "zh": "已提交，等待助教评阅（暂定得分仅供参考）。",
        "en": "Submitted, awaiting instructor review (the score is provisional).",
    },
    "summary.not_started": {"zh": "尚未开始。", "en": "Not started yet."},
    "status.passed": {"zh": "通过", "en": "passed"},
    "status.failed": {"zh": "未通过", "en": "failed"},
    "status.error": {"zh": "错误", "en": "error"},
    "status.needs_review": {"zh": "待评阅", "en": "needs review"},
    "status.not_started": {"zh": "未开始", "en": "not started"},
    "status.unchecked": {"zh": "已修改，未检查", "en": "changed, not checked yet"},
    "kind.code": {"zh": "代码", "en": "code"},
    "kind.prose": {"zh": "文字", "en": "prose"},
    "label.hint": {"zh": "提示", "en": "Hint"},
    "label.evidence": {
        "zh": "你的程序的输出（原样显示）",
        "en": "Output of your program (shown verbatim)",
    },
    "label.evidence_text": {
        "zh": "你写的原文（原样引用）",
        "en": "What you wrote (quoted as written)",
    },
    "label.evidence_above": {"zh": "输出同上。", "en": "Same output as shown above."},
    "label.score": {"zh": "得分", "en": "Score"},
    "label.check": {"zh": "检查项", "en": "Check"},
    "label.result": {"zh": "结果", "en": "Result"},
    "label.points": {"zh": "分数", "en": "Points"},
    "label.details": {"zh": "说明", "en": "Details"},
    "label.pass": {"zh": "通过", "en": "pass"},
    "label.fail": {"zh": "未通过", "en": "fail"},
    "list.id": {"zh": "练习", "en": "Exercise"},
    "list.kind": {"zh": "类型", "en": "Kind"},
    "list.title": {"zh": "标题", "en": "Title"},
    "list.points": {"zh": "分数", "en": "Points"},
    "list.status": {"zh": "状态", "en": "Status"},
    "list.footer": {
        "zh": "运行 grader check <练习> 查看详细反馈。",
        "en": "Run grader check <exercise> for detailed feedback.",
    },
    # -- release (instructors) ----------------------------------------------------------
    "error.release_out_not_empty": {
        "zh": "{out} 已存在且不是空文件夹。请换一个新的输出文件夹（grader release --out 新文件夹）。",
        "en": "{out} exists and is not an empty folder. Choose a new output folder (grader release --out NEW_DIR).",
    },
    "error.release_out_inside": {
        "zh": "输出文件夹 {out} 在课程目录 {root} 里面：请选择课程目录之外的文件夹。",
        "en": "The output folder {out} is inside the course folder {root}: choose a folder outside it.",
    },
    "release.done": {
        "zh": "学生版已写入 {out}：{files} 个文件；未包含的内容见 {manifest}。",
        "en": "Student copy written to {out}: {files} files; what was left out is listed in {manifest}.",
    },
    "release.step.copy": {"zh": "复制 {name}", "en": "copy {name}"},
    "release.step.exercises": {
        "zh": "写入题面和全新的起始文件",
        "en": "write the exercise statements and fresh starters",
    },
    # -- batch grading, gradebook, export, feedback, stats (grader grade/submit/...) ----------
    "error.db_url": {
        "zh": "无法把 {url} 用作成绩册：请给出 sqlite:///文件 或 postgresql://用户@主机/数据库（用 --db 或 GRADER_DB_URL）。",
        "en": "Cannot use {url} as the gradebook: give sqlite:///FILE or postgresql://USER@HOST/DB (with --db or GRADER_DB_URL).",
    },
    "error.db_unreachable": {
        "zh": "无法打开成绩册 {url}：{detail}。请确认数据库服务正在运行、URL 正确。",
        "en": "Cannot open the gradebook {url}: {detail}. Check that the database server is running and the URL is right.",
    },
    "error.review_no_result": {
        "zh": "成绩册里没有 {student} 在 {exercise} 上的结果：请先给全班评分。",
        "en": "{student} has no result for {exercise} in the gradebook: grade the class first.",
    },
    "error.review_score_range": {
        "zh": "最终分数必须在 0 到 {max_score} 之间；给出的是 {score}。",
        "en": "A final score must be between 0 and {max_score}; {score} was given.",
    },
    "error.no_submissions_folder": {
        "zh": "提交文件夹 {path} 不存在：请传入每个学生一个文件夹或 .zip 的那个文件夹。",
        "en": "There is no submissions folder {path}: pass the folder that holds one folder or .zip per student.",
    },
    "error.broker_unreachable": {
        "zh": "无法连接消息代理 {url}：{detail}。请先启动它，或去掉 --broker 在本机评分。",
        "en": "Cannot reach the broker {url}: {detail}. Start it, or grade on this machine without --broker.",
    },
    "error.no_worker": {
        "zh": "{url} 上已有 {seconds} 秒没有 worker 完成任何学生（已完成 {done}/{total}；应答的 worker：{workers}）。请用 grader worker --broker URL --db URL 启动 worker，再运行一次 grade：已记录的结果都会保留。",
        "en": "No worker finished a student on {url} for {seconds} s ({done}/{total} students done; workers answering: {workers}). Start workers with grader worker --broker URL --db URL, then run grade again: what is recorded stays.",
    },
    "error.batch_weak_isolation": {
        "zh": "正式评分需要隔离沙箱（namespaces 模式）；本机只有 {mode} 模式，探针在其中能读到参考答案和其他学生的文件。请在支持用户命名空间的机器上评分，或加 --allow-weak-isolation（这些记录会标为非正式）。",
        "en": "Official grading needs the isolating sandbox (namespaces mode); only {mode} mode is available here, in which a probe can read the solutions and other students' files. Grade on a machine with user namespaces, or pass --allow-weak-isolation (those rows are marked as not official).",
    },
    "error.student_id": {
        "zh": "{given} 不是有效的学生编号：只能用 1-64 个 A-Za-z0-9._- 字符，且不能以 . 或 - 开头。",
        "en": "{given} is not a valid student id: use 1-64 characters of A-Za-z0-9._- not starting with . or -.",
    },
    "error.manifest": {
        "zh": "{path} 与其清单不符：{detail}。",
        "en": "{path} does not match its manifest: {detail}.",
    },
    "batch.missing": {"zh": "未提交 {exercise}。", "en": "{exercise} was not handed in."},
    "batch.archive_corrupt": {
        "zh": "{archive} 不是可读的 zip 文件（{detail}）。请重新提交（grader submit 会生成它）。",
        "en": "{archive} is not a readable zip file ({detail}). Hand in a new one (grader submit makes it).",
    },
    "batch.archive_unsafe_path": {
        "zh": "{archive} 中有路径不安全的条目（{entry}：含 '..' 或绝对路径）；没有解压任何内容。请用 grader submit 重新打包。",
        "en": "{archive} holds an entry with an unsafe path ({entry}: '..' or absolute); nothing was extracted. Make the zip again with grader submit.",
    },
    "batch.archive_link": {
        "zh": "{archive} 中有符号链接（{entry}）；请提交文件本身。",
        "en": "{archive} holds a symbolic link ({entry}); hand in the files themselves.",
    },
    "batch.archive_duplicate": {
        "zh": "{archive} 中名称 {entry} 出现了不止一次。",
        "en": "{archive} holds the name {entry} more than once.",
    },
    "batch.archive_too_many": {
        "zh": "{archive} 有 {count} 个条目；最多允许 {limit} 个。",
        "en": "{archive} has {count} entries; at most {limit} are allowed.",
    },
    "batch.archive_too_big": {
        "zh": "{archive} 解压后会超过 {limit} MiB（zip 炸弹？）；没有解压任何内容。",
        "en": "{archive} would unpack to more than {limit} MiB (a zip bomb?); nothing was extracted.",
    },
    "batch.manifest_invalid": {
        "zh": "{archive} 中的 manifest.json 无效：{detail}。",
        "en": "manifest.json in {archive} is not valid: {detail}.",
    },
    "batch.manifest_mismatch": {
        "zh": "{archive} 中的 {entry} 与 manifest.json 里的 sha256 不符（grader submit 之后被改过？）。",
        "en": "{entry} in {archive} does not match its sha256 in manifest.json (changed after grader submit?).",
    },
    "batch.exercise_ambiguous": {
        "zh": "{folder} 中有多个候选文件（{files}）；请只提交 {file}（或一个 .ipynb）。",
        "en": "{folder} holds several candidate files ({files}); hand in only {file} (or a single .ipynb).",
    },
    "batch.exercise_empty": {
        "zh": "{folder} 中没有 {file}（也没有唯一的 .ipynb）。",
        "en": "{folder} has no {file} (nor a single .ipynb).",
    },
    "batch.skipped_entry": {
        "zh": "已跳过 {name}：它不是以有效学生编号命名的文件夹或 .zip（1-64 个 A-Za-z0-9._- 字符，不以 . 或 - 开头）。",
        "en": "Skipped {name}: not a student folder or .zip named with a valid student id (1-64 characters of A-Za-z0-9._-, not starting with . or -).",
    },
    "batch.summary": {
        "zh": "已评分 {graded}，未变 {unchanged}，通过 {passed}，未通过 {failed}，待复核 {needs_review}，已评阅 {reviewed}，错误 {errors}，缺交 {missing}，用时 {seconds} 秒",
        "en": "graded {graded}, unchanged {unchanged}, passed {passed}, failed {failed}, needs review {needs_review}, reviewed {reviewed}, errors {errors}, missing {missing}, {seconds} s",
    },
    "batch.weak_isolation_note": {
        "zh": "正在不使用隔离沙箱评分（--allow-weak-isolation）：这些记录会标为非正式。",
        "en": "Grading WITHOUT the isolating sandbox (--allow-weak-isolation): these rows are marked as not official.",
    },
    "batch.progress": {"zh": "评分中", "en": "grading"},
    "batch.waiting_workers": {
        "zh": "{url} 上还没有 worker 应答：请用 grader worker --broker URL --db URL 启动一个。",
        "en": "No worker has answered on {url} yet: start one with grader worker --broker URL --db URL.",
    },
    "batch.queued": {
        "zh": "已把 {count} 名学生排入 {url}（批次 {run_id}）。",
        "en": "Queued {count} student(s) on {url} (run {run_id}).",
    },
    "submit.packed": {
        "zh": "已把 {count} 道练习打包到 {path}。",
        "en": "Packed {count} exercise(s) into {path}.",
    },
    "submit.left_out_starter": {
        "zh": "{exercise}：仍是未改动的起始文件，未打包。",
        "en": "{exercise}: still the untouched starter, left out.",
    },
    "submit.nothing": {
        "zh": "没有可提交的内容：还没有开始任何练习。",
        "en": "Nothing to submit: no exercise has been started.",
    },
    "submit.verified": {
        "zh": "{path} 与其清单一致（{count} 个文件，学生 {student}）。",
        "en": "{path} matches its manifest ({count} file(s), student {student}).",
    },
    "feedback.written": {
        "zh": "已把 {count} 份反馈写入 {path}。",
        "en": "Wrote {count} feedback file(s) to {path}.",
    },
    "feedback.title": {"zh": "{student} 的反馈", "en": "Feedback for {student}"},
    "feedback.total": {"zh": "总分", "en": "Total"},
    "feedback.final_score": {"zh": "最终分数", "en": "Final score"},
    "feedback.comment": {"zh": "教师评语", "en": "Instructor's comment"},
    "feedback.your_file": {"zh": "你提交的文件", "en": "Your file"},
    "feedback.reason": {"zh": "原因", "en": "Reason"},
    "feedback.provisional": {"zh": "暂定，等待复核", "en": "provisional, awaiting review"},
    "status.missing": {"zh": "缺交", "en": "missing"},
    "stats.exercise": {"zh": "练习", "en": "Exercise"},
    "stats.passed": {"zh": "通过", "en": "passed"},
    "stats.students": {"zh": "名学生", "en": "students"},
    "stats.check_failed": {
        "zh": "{check}：全班 {share}% 未通过",
        "en": "{check}: failed by {share}% of the class",
    },
    "stats.mutant_survived": {
        "zh": "错误实现 {mutant} 在 {share}% 的探针中存活",
        "en": "Mutant {mutant} survived in {share}% of probes",
    },
    "stats.empty": {
        "zh": "成绩册是空的：请先运行 grader grade SUBMISSIONS。",
        "en": "The gradebook is empty: run grader grade SUBMISSIONS first.",
    },
    # -- the review page (grader review) --------------------------------------------------------
    "review.title": {"zh": "grader 评阅", "en": "grader review"},
    "review.started": {
        "zh": "评阅页面地址：{url}\n请在本机浏览器中打开（地址中的 token 就是钥匙，请勿外传）。按 Ctrl+C 停止服务。",
        "en": "The review page is at {url}\nOpen it in a browser on this machine (the token in the address is the key; keep it private). Ctrl+C stops the server.",
    },
    "review.forbidden": {
        "zh": "403 禁止访问：请使用 grader review 打印的地址打开页面（带有 ?token=...）。",
        "en": "403 Forbidden: open the page with the address grader review printed (it carries ?token=...).",
    },
    "review.csrf": {
        "zh": "403 禁止访问：表单的 CSRF 令牌缺失或不正确。请刷新页面后重试。",
        "en": "403 Forbidden: the form's CSRF token is missing or wrong. Reload the page and try again.",
    },
    "review.not_found": {
        "zh": "这里没有内容：成绩册中没有这个学生、练习或变异体。",
        "en": "Nothing here: no such student, exercise or mutant in the gradebook.",
    },
    "review.nav.matrix": {"zh": "全班", "en": "Class"},
    "review.nav.queue": {"zh": "评阅队列", "en": "Review queue"},
    "review.nav.insight": {"zh": "全班洞察", "en": "Class insight"},
    "review.reviewer": {"zh": "评阅人：{name}", "en": "Reviewer: {name}"},
    "review.lang.zh": {"zh": "中文", "en": "中文"},
    "review.lang.en": {"zh": "English", "en": "English"},
    "review.left": {"zh": "还剩 {count} 份待评阅", "en": "{count} left to review"},
    "review.reviewed": {"zh": "已评阅", "en": "reviewed"},
    "review.matrix.heading": {"zh": "全班成绩矩阵", "en": "Class matrix"},
    "review.matrix.filter": {"zh": "状态", "en": "Status"},
    "review.matrix.all": {"zh": "全部", "en": "all"},
    "review.matrix.sort": {"zh": "排序", "en": "Sort"},
    "review.matrix.sort.student": {"zh": "按学生", "en": "by student"},
    "review.matrix.sort.total_desc": {"zh": "按总分从高到低", "en": "by total, highest first"},
    "review.matrix.sort.total_asc": {"zh": "按总分从低到高", "en": "by total, lowest first"},
    "review.matrix.apply": {"zh": "应用", "en": "Apply"},
    "review.matrix.count": {
        "zh": "显示 {shown} / {students} 名学生",
        "en": "{shown} of {students} students",
    },
    "review.matrix.student": {"zh": "学生", "en": "Student"},
    "review.matrix.total": {"zh": "总分", "en": "Total"},
    "review.provisional": {"zh": "暂定分：等待评阅", "en": "provisional: awaiting review"},
    "review.final_score": {"zh": "最终得分", "en": "Final score"},
    "review.changed_since_review": {
        "zh": "评阅后提交已更改：评阅决定仍然保留，请重新检查。",
        "en": "Submission changed since review: the decision is kept, check it again.",
    },
    "review.file": {"zh": "提交的文件", "en": "Handed-in file"},
    "review.no_file": {
        "zh": "没有文件：未提交，或无法读取。",
        "en": "No file: nothing was handed in, or it could not be read.",
    },
    "review.concepts": {"zh": "评分要点：已覆盖与缺失", "en": "Rubric: concepts found and missing"},
    "review.concept.found": {"zh": "已覆盖", "en": "found"},
    "review.concept.missing": {"zh": "缺失", "en": "missing"},
    "review.concept.contradicted": {"zh": "相反", "en": "contradicted"},
    "review.checks": {"zh": "检查项", "en": "Checks"},
    "review.mutants": {"zh": "错误实现（变异体）", "en": "Wrong implementations (mutants)"},
    "review.mutant.killed": {"zh": "已捕获", "en": "killed"},
    "review.mutant.survived": {"zh": "漏网", "en": "survived"},
    "review.twins": {
        "zh": "写法不同的正确实现（孪生实现）",
        "en": "Correct implementations written differently (twins)",
    },
    "review.twin.passed": {"zh": "通过", "en": "passed"},
    "review.twin.failed": {"zh": "失败", "en": "failed"},
    "review.twin.not_evaluated": {"zh": "未评估", "en": "not evaluated"},
    "review.run": {"zh": "运行", "en": "Run"},
    "review.isolation": {"zh": "隔离方式", "en": "Isolation"},
    "review.isolation.none": {"zh": "无（未运行任何代码）", "en": "none (nothing was run)"},
    "review.weak_isolation": {
        "zh": "未使用隔离沙箱评分：非正式成绩",
        "en": "graded without the isolating sandbox: not official",
    },
    "review.seconds": {"zh": "评分耗时", "en": "Grading time"},
    "review.graded_at": {"zh": "评分时间", "en": "Graded at"},
    "review.worker": {"zh": "评分进程", "en": "Worker"},
    "review.content_sha256": {"zh": "内容 sha256", "en": "Content sha256"},
    "review.decision_heading": {"zh": "你的评阅决定", "en": "Your decision"},
    "review.override_heading": {"zh": "覆盖分数", "en": "Override the score"},
    "review.comment": {
        "zh": "评语（学生会在 grader feedback 中看到）",
        "en": "Comment (the student sees it in grader feedback)",
    },
    "review.comment_required": {"zh": "覆盖分数时必填", "en": "required for an override"},
    "review.save": {"zh": "保存", "en": "Save"},
    "review.saved": {"zh": "已保存。", "en": "Saved."},
    "review.decided_by": {
        "zh": "由 {reviewer} 于 {time} 设定",
        "en": "Set by {reviewer} at {time}",
    },
    "review.error.score_not_number": {
        "zh": "分数 {given} 不是数字：请输入 0 到满分之间的数。",
        "en": "The score {given} is not a number: type one from 0 to the maximum.",
    },
    "review.error.score_range": {
        "zh": "分数 {given} 不在 0 到 {max_score} 之间。",
        "en": "The score {given} is outside 0 to {max_score}.",
    },
    "review.error.comment_too_long": {
        "zh": "评语超过 {limit} 个字符，请缩短。",
        "en": "The comment is longer than {limit} characters; shorten it.",
    },
    "review.error.comment_required": {
        "zh": "覆盖分数需要写明理由：请填写评语后再保存。",
        "en": "An override needs a comment that says why: write one, then save again.",
    },
    "review.queue.heading": {
        "zh": "第 {position} / {count} 份答案",
        "en": "Answer {position} of {count}",
    },
    "review.queue.prev": {"zh": "上一份", "en": "previous"},
    "review.queue.next": {"zh": "下一份", "en": "next"},
    "review.queue.keys": {
        "zh": "快捷键：j 下一份，k 上一份，a 接受暂定分数并进入下一份，数字键输入分数，Ctrl+Enter 保存（并进入下一份）。",
        "en": "Keys: j next, k previous, a accepts the provisional score and moves on, a digit types the score, Ctrl+Enter saves (and moves on).",
    },
    "review.queue.empty": {
        "zh": "没有等待评阅的文字答案。",
        "en": "No prose answer awaits review.",
    },
    "review.insight.heading": {"zh": "全班洞察", "en": "Class insight"},
    "review.insight.pass_rate": {
        "zh": "各练习的全班通过比例",
        "en": "Share of the class that passed each exercise",
    },
    "review.insight.handed": {
        "zh": "已提交的 {handed} 份中 {passed} 份通过（共 {students} 名学生）。",
        "en": "{passed} of {handed} handed in passed ({students} students).",
    },
    "review.insight.mutants": {
        "zh": "各错误实现在探针中漏网的比例",
        "en": "Share of probes each wrong implementation survived",
    },
    "review.insight.click": {
        "zh": "点击条形查看哪些学生的探针放过了它。",
        "en": "Click a bar to see whose probe let it through.",
    },
    "review.insight.checks": {
        "zh": "各检查项的全班失败比例",
        "en": "Share of the class that failed each check",
    },
    "review.mutant.heading": {
        "zh": "{exercise}：放过这个错误实现的探针",
        "en": "{exercise}: probes that let this wrong implementation through",
    },
    "review.mutant.count": {
        "zh": "在对它评估过的 {tried} 份探针中有 {survived} 份放过了它（共提交 {handed} 份；在真实代码上就失败的探针不计入评估）。",
        "en": "{survived} of {tried} probes evaluated against it let it through ({handed} handed in; a probe that failed on the real code is not evaluated).",
    },
    "review.mutant.none": {"zh": "所有探针都捕获了它。", "en": "Every probe caught it."},
    "error.review_bind": {
        "zh": "无法在 {host}:{port} 上启动评阅页面：{detail}。请用 --port 换一个端口（0 表示任选空闲端口）。",
        "en": "Cannot serve the review page on {host}:{port}: {detail}. Pick another port with --port (0: any free one).",
    },
    "review.insight.awaiting": {"zh": "{count} 份待评阅", "en": "{count} awaiting review"},
    # -- review and feedback loop (issue 21) ---------------------------------------------
    "status.reviewed": {"zh": "已评阅", "en": "reviewed"},
    "review.nav.groups": {"zh": "答案分组", "en": "Answer groups"},
    "review.accept_hint": {
        "zh": "按 a 接受暂定分数 {score} 并进入下一份。",
        "en": "Press a to accept the provisional score {score} and move on.",
    },
    "review.queue.left_mode": {
        "zh": "本题还剩 {here} 份 / 全部还剩 {all} 份",
        "en": "{here} left in this question / {all} in all",
    },
    "review.queue.question": {"zh": "题目", "en": "Question"},
    "review.queue.every_question": {"zh": "全部题目", "en": "every question"},
    "review.queue.all_reviewed": {
        "zh": "全部已评阅：没有等待评阅的答案了。",
        "en": "All reviewed: no answer is waiting for a decision.",
    },
    "review.queue.all_reviewed_mode": {
        "zh": "{exercise} 已全部评阅。",
        "en": "All answers to {exercise} are reviewed.",
    },
    "review.queue.see_insight": {
        "zh": "查看全班洞察：全班在哪里出错。",
        "en": "See the class insight: where the class went wrong.",
    },
    "review.groups.link": {"zh": "按答案分组评阅", "en": "Review by answer group"},
    "review.groups.heading": {"zh": "答案分组", "en": "Answer groups"},
    "review.groups.count": {
        "zh": "{groups} 个组，共 {grouped} 份答案（待评阅队列共 {answers} 份）。",
        "en": "{groups} groups holding {grouped} answers (of {answers} in the review queue).",
    },
    "review.groups.question": {"zh": "题目", "en": "Question"},
    "review.groups.size": {"zh": "成员数", "en": "Members"},
    "review.groups.waiting": {"zh": "待评阅", "en": "Waiting"},
    "review.groups.decision": {"zh": "组分数", "en": "Group score"},
    "review.groups.first": {"zh": "第一位成员", "en": "First member"},
    "review.group.member_of": {
        "zh": "这份答案属于一个 {size} 人的答案组：可以一次评阅全组。",
        "en": "This answer is in a group of {size}: decide the whole group at once.",
    },
    "review.group.heading": {
        "zh": "{exercise} 的答案组（{size} 份）",
        "en": "Answer group of {exercise} ({size} answers)",
    },
    "review.group.explain": {
        "zh": "这些答案的评分规则结果相同，文字相同或几乎相同；标记处是与第一份答案不同的地方。一个决定适用于勾选的所有成员，之后仍可单独修改某一位。",
        "en": "These answers have the same rubric result and identical or near-identical texts; what differs from the first answer is marked. One decision applies to every member ticked; each can still be overridden on its own page.",
    },
    "review.group.left": {
        "zh": "提交已改动、已离开本组（原决定不再生效）：{students}",
        "en": "Changed after the decision and left the group (that decision no longer counts): {students}",
    },
    "review.group.overridden": {"zh": "已单独评阅", "en": "decided on its own"},
    "review.group.more": {"zh": "另有 {count} 位成员", "en": "{count} more members"},
    "review.group.decide": {"zh": "为全组评分", "en": "Decide the group"},
    "review.group.apply_to": {"zh": "适用于", "en": "Applies to"},
    "review.group.save": {"zh": "保存（{size} 份）", "en": "Save for the group ({size})"},
    "review.group.explain_diff": {
        "zh": "这些答案的评分规则结果相同，且与第一份答案最多相差几个字符（不多一句话，也不改动否定词）；每份答案先列出它多出的文字（高亮），再给出全文。一个决定适用于勾选的所有成员，之后仍可单独修改某一位。",
        "en": "These answers have the same rubric result and differ from the first answer by at most a few characters (no added sentence, no changed negation); each shows first what it adds (highlighted), then its whole text. One decision applies to every member ticked; each can still be overridden on its own page.",
    },
    "review.group.adds": {"zh": "多出的文字", "en": "What it adds"},
    "review.group.adds_nothing": {"zh": "与第一份答案相同", "en": "Same as the first answer"},
    "review.group.decided_by_group": {
        "zh": "已由本组的决定评阅（{score} 分）：{students}",
        "en": "Decided by this group's decision ({score}): {students}",
    },
    "review.group.not_decided": {
        "zh": "未包括在本组的决定中（仍待评阅，默认不勾选）：{students}",
        "en": "Left out of this group's decision (still waiting, unticked by default): {students}",
    },
    "review.integrity.heading": {
        "zh": "{exercise}：{first} 与 {second} 并排对比",
        "en": "{exercise}: {first} and {second} side by side",
    },
    "review.integrity.explain": {
        "zh": "标记的是两份提交中逐行相同的部分（忽略行首行尾空白）。报告只是线索：请阅读两份提交后再作判断。",
        "en": "Marked: the lines both hand-ins hold (leading and trailing spaces aside). A report is a lead, not a verdict: read both before you decide.",
    },
    "review.integrity.not_reported": {
        "zh": "grader integrity 没有报告这一对。",
        "en": "grader integrity does not report this pair.",
    },
    "review.integrity.noted": {
        "zh": "grader integrity 报告了这份提交与另一份相同或几乎相同：",
        "en": "grader integrity reports this hand-in as identical or near-identical to another:",
    },
    "review.error.group_empty": {
        "zh": "没有勾选任何成员：什么也没有保存。",
        "en": "No member ticked: nothing was saved.",
    },
    "review.conflict.stale_heading": {
        "zh": "提交已改变：决定未保存",
        "en": "The submission changed: decision not saved",
    },
    "review.conflict.taken_heading": {
        "zh": "另一位评阅者已保存：决定未保存",
        "en": "Another reviewer saved first: decision not saved",
    },
    "review.conflict.stale": {
        "zh": "你阅读的是 {student} 的 {exercise} 的旧版本，之后学生交了新版本并已评分。你的决定没有保存到新版本上。请打开当前版本再决定。",
        "en": "You read an older version of {student}'s {exercise}; a newer one has been graded since. Your decision was not stored on it. Open the current version and decide again.",
    },
    "review.conflict.taken": {
        "zh": "你打开 {student} 的 {exercise} 之后，另一位评阅者保存了决定。你的决定没有覆盖它。请查看下面的决定，再决定是否修改。",
        "en": "Another reviewer saved a decision on {student}'s {exercise} after you opened it. Yours did not overwrite it. Look at theirs below, then decide again if needed.",
    },
    "review.conflict.yours": {"zh": "你输入的分数：{score}", "en": "Your score: {score}"},
    "review.conflict.read": {"zh": "你阅读的版本", "en": "The version you read"},
    "review.conflict.current": {"zh": "现在的版本", "en": "The current version"},
    "review.conflict.reopen": {"zh": "打开当前版本", "en": "Open the current version"},
    "feedback.awaiting": {
        "zh": "等待教师评阅（满分 {max_score} 分）",
        "en": "awaiting the instructor ({max_score} points)",
    },
    "feedback.filtered": {
        "zh": "只写入了教师已发布的内容：{held} 份未评阅的文字答案没有显示分数（用 --all 全部写入）。",
        "en": "Only what the instructor released was written: {held} unreviewed prose answers show no score (--all writes everything).",
    },
    "stats.not_started": {"zh": "未开始：{count}", "en": "not started: {count}"},
    "stats.too_short": {"zh": "太短：{count}", "en": "too short: {count}"},
    "stats.mutant_evaluated": {
        "zh": "错误实现 {mutant} 在 {share}% 的探针中存活（已评估 {evaluated} 份中的 {survived} 份；共提交 {handed} 份）",
        "en": "Mutant {mutant} survived in {share}% of probes ({survived} of {evaluated} evaluated; {handed} handed in)",
    },
    "stats.prose_decided": {
        "zh": "已评阅 {decided} 份中通过 {passed} 份（得分不低于满分一半），{waiting} 份仍待评阅",
        "en": "passed {passed}/{decided} reviewed (at least half the points), {waiting} still waiting for review",
    },
    "review.insight.not_started": {
        "zh": "未开始 {not_started}，太短 {too_short}（不计入下面的失败比例）",
        "en": "not started: {not_started}, too short: {too_short} (left out of the failure shares below)",
    },
    "review.insight.prose": {
        "zh": "已评阅 {decided} 份中 {passed} 份通过（得分不低于满分一半），{waiting} 份仍待评阅。",
        "en": "{passed} of {decided} decided answers passed (at least half the points); {waiting} still waiting for review.",
    },
    "review.insight.evaluated": {
        "zh": "已评估 {evaluated} / {handed}",
        "en": "{evaluated} of {handed} evaluated",
    },
    "batch.revoked": {
        "zh": "超时：本次运行中 {count} 个未完成的任务已撤销，其中 {purged} 个已从队列中清除（之后不会再被评分）。再次运行 grade 即可为这些学生评分。",
        "en": "Timed out: {count} unanswered tasks of this run were revoked and {purged} of them purged from the queue (none will be graded later). Run grade again to grade those students.",
    },
    "error.submit_exists": {
        "zh": "{path} 已存在：要覆盖它请加 --force，或用 --out 指定另一个文件。",
        "en": "{path} already exists: pass --force to overwrite it, or --out another file.",
    },
    "list.prose_awaiting": {
        "zh": "等待教师评阅，{max_score} 分",
        "en": "awaiting the instructor, {max_score} points",
    },
    "feedback.total_awaiting": {
        "zh": "不含 {count} 道等待教师评阅的题",
        "en": "not counting {count} awaiting the instructor",
    },
    "error.feedback_unknown": {
        "zh": "成绩册里没有这些学生或练习：{names}。请检查拼写（grader export 列出全部）。",
        "en": "No such student or exercise in the gradebook: {names}. Check the spelling (grader export lists them all).",
    },
    # -- a real term (issue 20): roster, deadlines, exports, integrity, interrupts -----
    "error.no_such_run": {
        "zh": "没有第 {run_id} 次运行：grader gradebook runs 会列出所有运行。",
        "en": "There is no run {run_id}: grader gradebook runs lists them.",
    },
    "gradebook.removed": {
        "zh": "已移除 {student}：删除了 {count} 条评分及其接收时间和延期（复核保留）。",
        "en": "{student} removed: {count} grading(s) deleted with their received times and extensions (reviews kept).",
    },
    "gradebook.undone": {
        "zh": "已撤销第 {run_id} 次运行：删除了 {count} 条评分；每份提交重新显示之前的评分（或没有）。",
        "en": "Run {run_id} undone: {count} grading(s) deleted; each submission shows its earlier grading again (or none).",
    },
    "gradebook.not_confirmed": {
        "zh": "未确认：没有做任何更改。",
        "en": "Not confirmed: nothing was changed.",
    },
    "gradebook.confirm_remove": {
        "zh": "删除 {student} 的所有评分、接收时间和延期（保留复核）？输入 yes：",
        "en": "Delete every grading, received time and extension of {student} (reviews are kept)? Type yes:",
    },
    "gradebook.confirm_undo": {
        "zh": "删除第 {run_id} 次运行记录的所有评分（保留复核）？输入 yes：",
        "en": "Delete every grading run {run_id} recorded (reviews are kept)? Type yes:",
    },
    "integrity.no_base": {
        "zh": "没有找到课程根目录（--root）：比较时没有排除起始文件和参考答案。",
        "en": "No course root found (--root): starters and solutions are not left out of the comparison.",
    },
    "integrity.clean": {
        "zh": "在 {count} 条当前结果中没有发现问题（分母：全部当前结果）。",
        "en": "Nothing found among {count} current results (denominator: every current result).",
    },
    "integrity.manifest": {
        "zh": "{student}：zip 的清单写的是另一名学生 {claimed}（复制的 zip 或伪造的清单）。",
        "en": "{student}: the zip's manifest names another student, {claimed} (a copied zip or a forged manifest).",
    },
    "integrity.near": {
        "zh": "{exercise}：{first} 与 {second} 各自代码的 {share}% 相同（winnowing 指纹，已排除起始文件和参考答案）。",
        "en": "{exercise}: {first} and {second} share {share}% of their own code (winnowing fingerprints, the starter and the solution left out).",
    },
    "integrity.identical": {
        "zh": "{exercise}：{students} 的提交完全相同。",
        "en": "{exercise}: identical submissions from {students}.",
    },
    "integrity.reference": {
        "zh": "{exercise}：{student} 交的就是参考答案（除注释、排版和无作用语句外完全相同）。",
        "en": "{exercise}: {student} handed in the reference solution (the same code, comments, layout and no-op statements aside).",
    },
    "integrity.near_code": {
        "zh": "{exercise}：{first} 与 {second}：较小一份自己写的代码有 {containment}% 出现在另一份中（Jaccard {share}%；已去掉无作用语句、题目的显然写法和全班共有的部分）。结构之外的证据：{why}。",
        "en": "{exercise}: {first} and {second}: {containment}% of the smaller hand-in's own code is in the other (Jaccard {share}%; no-op statements, the statement's obvious shape and what the class shares left out). Evidence beyond structure: {why}.",
    },
    "integrity.near_obvious": {
        "zh": "{exercise}：{first} 与 {second} 都只写了题目的显然写法（{containment}% 指纹相同，这本身不说明抄袭），但原文还共有：{why}。",
        "en": "{exercise}: {first} and {second} both wrote only the statement's obvious shape ({containment}% of fingerprints in common, which alone proves nothing), but their texts also share: {why}.",
    },
    "integrity.near_prose": {
        "zh": "{exercise}：{first} 与 {second} 的答案只差 {distance} 个字符（去掉大小写、空白和标点后），模板和参考答案已排除。",
        "en": "{exercise}: the answers of {first} and {second} differ by {distance} character(s) (case, spacing and punctuation aside), the template and the model answer left out.",
    },
    "integrity.why.names": {
        "zh": "两人都用、全班少见的名字 {items}",
        "en": "rare names both use: {items}",
    },
    "integrity.why.strings": {
        "zh": "相同的字符串 {items}",
        "en": "the same strings: {items}",
    },
    "integrity.why.comments": {
        "zh": "相同的注释 {items}",
        "en": "the same comments: {items}",
    },
    "integrity.why.lines": {
        "zh": "{count} 行逐字相同，例如 {example}",
        "en": "{count} identical line(s), e.g. {example}",
    },
    "integrity.see_pair": {
        "zh": "并排对比：评阅页面的 {path}",
        "en": "side by side: {path} on the review page",
    },
    "batch.manifest_other_student": {
        "zh": "{count} 个 zip 的清单写的是另一名学生（zip -> 清单）：{pairs}。可能是复制的 zip 或伪造的清单：见 grader integrity。",
        "en": "{count} zip(s) carry a manifest naming another student (zip -> manifest): {pairs}. A copied zip or a forged manifest: see grader integrity.",
    },
    "submit.manifest_exercises": {
        "zh": "{path} 被拒绝：清单列出了 zip 中没有的练习（{missing}），或 zip 中有清单未列出的练习（{unlisted}）。请用 grader submit 重新打包。",
        "en": "{path} is refused: its manifest lists exercises the zip does not hold ({missing}) or the zip holds exercises the manifest does not list ({unlisted}). Make the zip again with grader submit.",
    },
    "submit.manifest_other_student": {
        "zh": "{path} 被拒绝：其清单上的学生是 {student}，而不是 {stem}（文件名）。从别的学生那里复制的 zip 会保留对方的清单；请用 grader submit 生成你自己的。",
        "en": "{path} is refused: its manifest names the student {student}, not {stem} (the file's name). A zip copied from another student keeps their manifest; make your own with grader submit.",
    },
    "error.extend_until": {
        "zh": "请用 --until TIME 给出新的截止时间（ISO 8601，例如 2026-12-09T23:59）。",
        "en": "Give the new due time with --until TIME (ISO 8601, e.g. 2026-12-09T23:59).",
    },
    "error.worker_other_gradebook": {
        "zh": "这个 worker 写入的成绩册是 {worker_db}，但 grade 的第 {run_id} 次运行记录在 {grade_db}：它们不是同一个成绩册。worker 拒绝了该任务（没有写入任何内容），已告知 grade（它会撤回本次运行的任务）并停止。请用与 grade 相同的 --db 重新启动 worker。",
        "en": "This worker writes into the gradebook {worker_db}, but grade's run {run_id} is recorded in {grade_db}: they are not the same gradebook. The worker refused the task (nothing was written), told grade (which takes its run's tasks back) and stopped. Start the worker again with the same --db as grade.",
    },
    "error.grade_worker_other_gradebook": {
        "zh": "worker {worker} 写入的成绩册是 {worker_db}，而不是本次 grade 的 {grade_db}：它拒绝了任务（没有写入任何内容）并已停止。本次运行未完成的任务已撤回。请用与 grade 相同的 --db 启动 worker，再运行一次 grade：已记录的结果都会保留。",
        "en": "The worker {worker} writes into the gradebook {worker_db}, not this grade's {grade_db}: it refused the tasks (nothing was written) and stopped. This run's unanswered tasks were taken back. Start workers with the same --db as grade, then run grade again: what is recorded stays.",
    },
    "error.extend_before_due": {
        "zh": "--until {until} 早于 {exercise} 的截止时间（{due}）：延期只能把截止时间往后推，否则按时交的作业会变成迟交。没有记录任何内容；请给出晚于 {due} 的时间。",
        "en": "--until {until} is before the due time of {exercise} ({due}): an extension only moves a due time later, or work handed in on time would become late. Nothing was recorded; give a time after {due}.",
    },
    "error.extend_unknown_student": {
        "zh": "{student} 既不在名单上，也不在本成绩册已评分的提交中；没有记录任何内容。请检查学号（grader roster show 列出全班），或先导入名单（grader roster import）。",
        "en": "{student} is neither on the roster nor among the graded submissions of this gradebook; nothing was recorded. Check the id (grader roster show lists the class), or import the roster first (grader roster import).",
    },
    "extend.none": {
        "zh": "{student} 在 {exercise} 上没有延期。",
        "en": "{student} has no extension for {exercise}.",
    },
    "extend.revoked": {
        "zh": "已撤销 {student} 在 {exercise} 上的延期；迟交已重新计算。",
        "en": "Extension of {student} for {exercise} removed; lateness recomputed.",
    },
    "extend.granted": {
        "zh": "已记录延期：{student}，{exercise}（'*' 表示所有练习），截止 {until}。迟交与扣分已重新计算。",
        "en": "Extension recorded: {student}, {exercise} ('*' = every exercise), due {until}. Lateness and penalties were recomputed.",
    },
    "error.received_at": {
        "zh": "无法使用接收时间文件 {path}（第 {line} 行）：{detail}。请给出含 student、exercise（或 all）、time 列的 CSV。",
        "en": "Cannot use the received times {path} (line {line}): {detail}. Give a CSV with the columns student, exercise (or all), time.",
    },
    "error.course_settings": {
        "zh": "无法使用课程设置 {path}：{detail}。格式见 README 的“截止时间”一节。",
        "en": 'Cannot use the course settings {path}: {detail}. See README, "Deadlines", for the format.',
    },
    "error.bad_time": {
        "zh": "{given} 不是时间（{what}）：请写成 ISO 8601 格式，例如 2026-12-07T23:59 或 2026-12-07T23:59+08:00。",
        "en": "{given} is not a time ({what}): write it as ISO 8601, e.g. 2026-12-07T23:59 or 2026-12-07T23:59+08:00.",
    },
    "feedback.late": {
        "zh": "晚交 {late}（截止 {due}），扣分 {penalty}%。",
        "en": "Handed in {late} late (due {due}); penalty {penalty}%.",
    },
    "batch.late": {
        "zh": "{count} 份提交晚于截止时间（已计入延期）；导出时会扣除相应分数，学生的反馈页上也会写明。",
        "en": "{count} submission(s) arrived after their due time (extensions included); the penalty is applied in the exports and stated on the students' feedback pages.",
    },
    "error.no_roster": {
        "zh": "--roster-only 需要名单：请先用 grader roster import roster.csv 导入（同一个 --db）。",
        "en": "--roster-only needs a roster: import one first with grader roster import roster.csv (same --db).",
    },
    "batch.no_submission": {
        "zh": "名单上有 {count} 名学生什么也没有提交：{students}。",
        "en": "{count} student(s) on the roster handed in nothing: {students}.",
    },
    "batch.off_roster_skipped": {
        "zh": "{count} 份提交的编号不在名单上，已跳过（--roster-only）：{students}。",
        "en": "{count} submission(s) are from ids not on the roster and were skipped (--roster-only): {students}.",
    },
    "batch.off_roster": {
        "zh": "{count} 份提交的编号不在名单上（仍已评分；--roster-only 会跳过它们）：{students}。",
        "en": "{count} submission(s) are from ids not on the roster (graded anyway; --roster-only skips them): {students}.",
    },
    "error.export_mapping": {
        "zh": "无法使用列映射 {given}：{detail}。请给出 EX-ID=NAME，或每行为 exercise,column 的 CSV 文件。",
        "en": "Cannot use the column mapping {given}: {detail}. Give EX-ID=NAME, or a CSV file of exercise,column lines.",
    },
    "error.export_out_folder": {
        "zh": "--out {path}：文件夹 {folder} 不存在；没有写入任何内容。请先创建它，或选择已有的文件夹。",
        "en": "--out {path}: the folder {folder} does not exist; nothing was written. Create it first, or choose a folder that exists.",
    },
    "error.export_out_is_folder": {
        "zh": "--out {path} 是一个文件夹；请给出要写入的文件名，例如 {path}/grades.csv。没有写入任何内容。",
        "en": "--out {path} is a folder; give the file to write, e.g. {path}/grades.csv. Nothing was written.",
    },
    "error.export_overwrite": {
        "zh": "{path} 已存在，且不是本成绩册的 {format} 导出（表头不同，或列出了本成绩册没有的学生）；没有写入任何内容。请换一个 --out 文件，或用 --force 覆盖它。",
        "en": "{path} exists and is not a {format} export of this gradebook (another header, or students this gradebook does not have); nothing was written. Choose another --out file, or replace it with --force.",
    },
    "export.unmapped": {
        "zh": "警告：{count} 名学生在名单上没有 {kind}，已略去（Moodle 遇到无法对应用户的行会中止整个导入）：{students}。请用 grader roster import 补上，或使用 --identifier username。",
        "en": "WARNING: {count} student(s) have no {kind} on the roster and were left out (Moodle stops the whole import at a row it cannot map): {students}. Add them with grader roster import, or use --identifier username.",
    },
    "error.roster_duplicate": {
        "zh": "名单 {path} 第 {line} 行：编号 {given} 第二次出现。没有导入任何内容。",
        "en": "Line {line} of the roster {path}: the id {given} appears a second time. Nothing was imported.",
    },
    "error.roster_bad_id": {
        "zh": "名单 {path} 第 {line} 行：{given} 不是有效的学生编号（1-64 个 A-Za-z0-9._- 字符，即学生文件夹或 zip 的名字）。没有导入任何内容。",
        "en": "Line {line} of the roster {path}: {given} is not a valid student id (1-64 characters of A-Za-z0-9._-, the name of the student's folder or zip). Nothing was imported.",
    },
    "error.roster_no_id": {
        "zh": "名单 {path} 没有 id 列：第一行须是列名，其中一列为 id（或 student）。",
        "en": "The roster {path} has no id column: its first line must name the columns, one of them id (or student).",
    },
    "error.roster_unreadable": {
        "zh": "无法读取名单 {path}：{detail}。请把它另存为 UTF-8 编码（带或不带 BOM）的 CSV。",
        "en": "Cannot read the roster {path}: {detail}. Save it as CSV in UTF-8 (with or without BOM).",
    },
    "roster.empty": {
        "zh": "名单为空：请用 grader roster import roster.csv 导入。",
        "en": "The roster is empty: import one with grader roster import roster.csv.",
    },
    "roster.imported": {
        "zh": "名单 {path}：新增 {added} 人，更新 {changed} 人；名单上共 {total} 名学生。",
        "en": "Roster {path}: {added} added, {changed} changed; {total} students on the roster.",
    },
    "batch.stopping": {
        "zh": "正在停止：不再分派学生；正在进行的运行还有 {seconds} 秒完成，之后会被取消。再按一次 Ctrl-C 立即停止。",
        "en": "Stopping: no further student is handed out; the runs in flight get {seconds} s to finish, then are cancelled. Press Ctrl-C again to stop at once.",
    },
    "batch.stopping_broker": {
        "zh": "正在停止：不再等待；本次运行中还没有 worker 完成的任务将被撤销并从队列中清除，worker 正在评分的学生会评完并记录。再按一次 Ctrl-C 立即停止。",
        "en": "Stopping: no more waiting; the run's tasks that no worker has finished are revoked and taken off the queue, and a student a worker is grading now is finished and recorded. Press Ctrl-C again to stop at once.",
    },
    "batch.revoked_on_stop": {
        "zh": "已停止：本次运行中 {count} 个未完成的任务已撤销，其中 {purged} 个已从队列中清除；worker 此刻正在评分的学生仍会评完并记录。再次运行 grade 即可为其余学生评分。",
        "en": "Stopped: {count} unanswered tasks of this run were revoked and {purged} of them purged from the queue; a student a worker was grading at that moment is still finished and recorded. Run grade again to grade the rest.",
    },
    "batch.dry_summary": {
        "zh": "试运行：将评分 {grade} 个，拒绝 {refuse} 个，跳过 {skip} 个；没有写入任何东西。",
        "en": "Dry run: {grade} to grade, {refuse} refused, {skip} skipped; nothing was written.",
    },
    "batch.dry_skip": {
        "zh": "跳过    {name}：不是学生文件夹或 .zip",
        "en": "skip    {name}: not a student folder or .zip",
    },
    "batch.dry_refuse": {
        "zh": "拒绝    {name}：同名的文件夹和 zip（各练习记一条错误）",
        "en": "refuse  {name}: a folder and a zip with the same id (an error row each)",
    },
    "batch.dry_grade": {
        "zh": "评分    {name}（{kind}）",
        "en": "grade   {name} ({kind})",
    },
    "error.not_a_class_course": {
        "zh": "{path} 看起来是课程的副本，而不是全班：其中有 {found}。没有评分，也没有写入任何东西。请传入每个学生一个文件夹或 .zip 的那个文件夹（若确实要评分，加 --force）。",
        "en": "{path} looks like a copy of the course, not a class: it holds {found}. Nothing was graded or written. Pass the folder that holds one folder or .zip per student (or add --force to grade it anyway).",
    },
    "error.not_a_class_student": {
        "zh": "{path} 看起来是某一个学生的文件夹，而不是全班：其中有练习文件夹（{found}）。没有评分，也没有写入任何东西。请传入每个学生一个文件夹或 .zip 的那个文件夹（若确实要评分，加 --force）。",
        "en": "{path} looks like one student's folder, not a class: it holds exercise folders ({found}). Nothing was graded or written. Pass the folder that holds one folder or .zip per student (or add --force to grade it anyway).",
    },
    "error.internal_instructor": {
        "zh": "评分器内部错误：{detail}。这是评分器的缺陷，不是提交的问题；已记录的结果都会保留。请把你运行的命令和这条消息一起作为缺陷提交。",
        "en": "Internal grader error: {detail}. This is a bug in the grader, not a problem with the submissions; what was recorded stays. File it with the command you ran and this message.",
    },
    "error.db_foreign_schema": {
        "zh": "{url} 中的 {table} 表不是评分器的；数据库保持原样。请给出评分器自己的成绩册，或一个新的文件名。",
        "en": "{url} has a {table} table that is not the grader's; the database was left unchanged. Give the grader's own gradebook, or a new file name.",
    },
    "error.db_foreign": {
        "zh": "{url} 不是评分器创建的数据库（其中的表：{tables}）；它保持原样。请给出评分器自己的成绩册，或一个新的文件名。",
        "en": "{url} is a database the grader did not create (its tables: {tables}); it was left unchanged. Give the grader's own gradebook, or a new file name.",
    },
    "error.db_foreign_revision": {
        "zh": "{url} 是其他工具的数据库（其 alembic_version 为 {revision}，不是评分器的迁移）；它保持原样。请给出评分器自己的成绩册，或一个新的文件名。",
        "en": "{url} is a database of another tool (its alembic_version is {revision}, not a grader migration); it was left unchanged. Give the grader's own gradebook, or a new file name.",
    },
    "error.db_not_database": {
        "zh": "{url} 不是数据库（开头不像 SQLite 文件）；它保持原样。请给出成绩册的路径，或一个新的文件名。",
        "en": "{url} is not a database (it does not start like a SQLite file); it was left unchanged. Give the path of the gradebook, or a new file name.",
    },
    "error.db_missing": {
        "zh": "{url} 处没有成绩册：没有创建任何东西。请检查路径（或 --db / GRADER_DB_URL）；成绩册由 grader grade 创建。",
        "en": "There is no gradebook at {url}: nothing was created. Check the path (or --db / GRADER_DB_URL); grader grade creates the gradebook.",
    },
    "batch.killed": {
        "zh": "已立即停止（第二次中断）：所有评分进程都已结束。{total} 份提交中已有 {recorded} 份记入成绩册；再运行一次同样的 grade 命令即可评完其余 {remaining} 份（已记录的不会重复评分）。",
        "en": "Stopped at once (second interrupt): every grading process was killed. {recorded} of {total} submissions are recorded in the gradebook; run the same grade command again to grade the remaining {remaining} (nothing recorded is graded twice).",
    },
    "batch.interrupted": {
        "zh": "已中断：不再分派学生，正在进行的运行已取消。{total} 份提交中已有 {recorded} 份记入成绩册；再运行一次同样的 grade 命令即可评完其余 {remaining} 份（已记录的不会重复评分）。",
        "en": "Interrupted: stopped handing out students and cancelled the runs in flight. {recorded} of {total} submissions are recorded in the gradebook; run the same grade command again to grade the remaining {remaining} (nothing recorded is graded twice).",
    },
    "batch.grading_failed": {
        "zh": "这份提交无法评分：{detail}。全班其余提交已评分；请再运行一次 grade 重试；若仍以同样方式失败，请把这条消息作为评分器缺陷报告。",
        "en": "This submission could not be graded: {detail}. The rest of the class was graded; run grade again to retry it, and if it fails the same way, file it as a grader bug with this message.",
    },
    "batch.folder_and_zip": {
        "zh": "{student} 同时提交了同名的文件夹和 zip；两者都没有评分。请在 SUBMISSIONS 中只保留其中一个，再运行一次 grade。",
        "en": "{student} handed in both a folder and a zip with the same id; neither was graded. Keep only one of them in SUBMISSIONS and run grade again.",
    },
    "batch.archive_path_too_long": {
        "zh": "{archive} 中有条目的路径超过 {limit} 字节（{entry}）；没有解压任何内容。请使用更浅的文件夹结构。",
        "en": "{archive} holds an entry whose path is longer than {limit} bytes ({entry}); nothing was extracted. Use a shallower folder layout.",
    },
    "batch.archive_name_too_long": {
        "zh": "{archive} 中有条目的某一级名称超过 {limit} 字节（{entry}）；没有解压任何内容。请使用更短的文件名。",
        "en": "{archive} holds an entry whose name part is longer than {limit} bytes ({entry}); nothing was extracted. Use shorter file names.",
    },
    "batch.archive_prefix_clash": {
        "zh": "{archive} 中的 {entry} 既是文件又是文件夹；没有解压任何内容。请用 grader submit 重新打包。",
        "en": "{archive} holds {entry} both as a file and as a folder; nothing was extracted. Make the zip again with grader submit.",
    },
    # -- one grade (issue 29): states, penalties, what a student sees ----------------------
    "status.resubmit": {"zh": "需重新提交", "en": "needs re-submission"},
    "grade.state.not_handed_in": {"zh": "未提交", "en": "not handed in"},
    "grade.state.needs_resubmission": {"zh": "需重新提交", "en": "needs re-submission"},
    "grade.state.machine_graded": {"zh": "自动评分", "en": "machine-graded"},
    "grade.state.awaiting_review": {"zh": "等待教师评阅", "en": "awaiting the instructor"},
    "grade.state.decided": {"zh": "教师已决定", "en": "decided by the instructor"},
    "grade.penalised": {
        "zh": "原始得分 {raw}，晚交扣分 {penalty}% → 最终 {final}",
        "en": "raw score {raw}, late penalty {penalty}% → final {final}",
    },
    "grade.penalised_decision": {
        "zh": "教师给分 {raw}，晚交扣分 {penalty}% → 最终 {final}",
        "en": "instructor's score {raw}, late penalty {penalty}% → final {final}",
    },
    "grade.raw": {"zh": "原始得分", "en": "raw score"},
    "grade.final": {"zh": "最终得分", "en": "final score"},
    "grade.penalty": {"zh": "晚交扣分", "en": "late penalty"},
    "grade.decision": {"zh": "教师决定", "en": "instructor's decision"},
    "feedback.resubmit": {
        "zh": "需要重新提交：这份提交无法评分（原因见下）。请改正后重新提交；在此之前这道题没有分数。",
        "en": "Needs re-submission: this hand-in could not be graded (the reason is below). Fix it and hand it in again; until then this exercise has no score.",
    },
    "feedback.syntax_zero": {
        "zh": "代码无法运行（见下面的原因），按未通过计 0 分。",
        "en": "The code does not run (the reason is below): failed, 0 points.",
    },
    "export.awaiting_blank": {
        "zh": "{count} 份文字回答仍在等待教师评阅，导出为空：{students}{more}。评阅后再导出；--provisional 会导出暂定分。",
        "en": "{count} prose answer(s) still await the instructor and were exported EMPTY: {students}{more}. Export again once decided; --provisional exports their provisional scores.",
    },
    "export.awaiting_provisional": {
        "zh": "警告：按 --provisional 导出了 {count} 个未经教师决定的暂定分：{students}{more}。",
        "en": "WARNING: {count} provisional score(s), not decided by the instructor, were exported (--provisional): {students}{more}.",
    },
    "export.resubmit_empty": {
        "zh": "警告：{count} 个单元格需要学生重新提交（损坏的 zip、清单不符或评分失败），导出为空而不是 0：{students}{more}。原因见 grader review 或 export --format json；--errors-as-zero 会把它们导出为 0。",
        "en": "WARNING: {count} cell(s) need re-submission (a corrupt zip, a manifest mismatch or a grader failure) and were exported EMPTY, not as 0: {students}{more}. See grader review or export --format json for the reasons; --errors-as-zero exports them as 0.",
    },
    "export.resubmit_zero": {
        "zh": "警告：{count} 个需要重新提交的单元格已按 --errors-as-zero 导出为 0：{students}{more}。",
        "en": "WARNING: {count} cell(s) that need re-submission were exported as 0 (--errors-as-zero): {students}{more}.",
    },
    "stats.final_scores": {
        "zh": "最终得分（含晚交扣分）平均 {mean} / {max_score}（{graded} 名有分数的学生）",
        "en": "final score (late penalty included) mean {mean} / {max_score} (over {graded} students with a score)",
    },
    "stats.stray": {
        "zh": "{count} 个编号不在名单上且没有有效提交，不计为学生：{ids}",
        "en": "{count} id(s) not on the roster and with no valid submission, not counted as students: {ids}",
    },
    "review.too_short": {
        "zh": "评分规则认为这个回答太短（见下面的长度检查）：它在这里等你评阅，而不是自动判为未通过。",
        "en": "The rubric finds this answer too short (see the length check below): it waits here for you instead of being failed unseen.",
    },
    "review.error.no_grading": {
        "zh": "这个表单没有说明它是基于哪一次评分作出的决定，因此没有保存。请重新打开这份提交再决定。",
        "en": "This form does not name the grading it was read on, so nothing was saved. Open the submission again and decide there.",
    },
}


MESSAGES.update(INBOX_MESSAGES)
