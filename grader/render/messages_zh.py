# ruff: noqa: E501  (catalogue text and rubric patterns read best unwrapped)
"""Simplified Chinese catalogue (the default language of feedback)."""

MESSAGES: dict[str, str] = {
    # -- errors (exit 2 / 3) -------------------------------------------------------------
    "error.usage": "用法错误：{detail}",
    "error.no_course_root": (
        "在 {start} 及其上级目录中找不到 exercises/ 文件夹。请在课程根目录运行，或用 --root DIR 指定。"
    ),
    "error.unknown_exercise": "没有练习 {given}。可用的练习：{known}。运行 grader list 查看全部。",
    "error.unknown_exercise_suggest": "没有练习 {given}。你是不是想输入 {suggestion}？",
    "error.submission_not_found": (
        "找不到要检查的文件 {path}。请先创建它（练习说明见 exercises/{exercise}/README.md），"
        "或用 --path FILE 指定文件。"
    ),
    "error.submission_unreadable": "无法读取 {path}：{reason}。请确认它是 UTF-8 编码的文本文件。",
    "error.submission_symlink": "{path} 是一个符号链接：请提交文件本身（把文件复制到这里，而不是链接到别处）。",
    "error.submission_linked_folder": "{path} 路径上的文件夹 {link} 是一个符号链接：请把文件本身放在真实的文件夹里提交（或者传入真实路径）。",
    "error.submission_not_regular": "{path} 不是普通文件（而是目录、FIFO、套接字或设备）：请提交文件本身。",
    "error.unsupported_submission": "{path} 不能用于这个练习：需要 {expected} 文件。",
    "error.syntax": "{path} 第 {line} 行有语法错误：{detail}。请先修正它再检查。",
    "error.syntax_cell": "{path} 第 {cell} 个代码单元格第 {line} 行有语法错误：{detail}。请先修正它再检查。",
    "error.invalid_notebook": "{path} 不是有效的 Jupyter 笔记本：{reason}。",
    "error.empty_notebook": "{path} 里没有可检查的{what}单元格。",
    "error.internal": "评分器内部错误：{detail}。这不是你的问题，请把这条信息报告给助教。",
    "error.runner": "无法在沙箱中运行代码：{detail}。这不是你的问题，请把这条信息报告给助教。",
    "error.interrupted": "已中断。",
    # -- check titles ---------------------------------------------------------------------
    "check.started": "已开始作答",
    "check.runs_cleanly": "在真实的 ticketflow 上运行无错误",
    "check.output": "输出与要求的表格一致",
    "check.calls": "确实调用了要测试的函数",
    "check.mutant": "能发现错误实现：{arg}",
    "check.concept": "包含要点：{arg}",
    "check.length": "回答长度",
    # -- code: not started / real run ------------------------------------------------------
    "code.not_started": "{file} 还是起始模板，尚未开始作答。按照 README.md 完成探针后再检查。",
    "run.ok": "探针在真实实现上运行结束，退出码 0。",
    "run.timeout": "探针运行超过 {seconds} 秒被终止。检查是否有死循环或在等待外部服务。",
    "run.limit": "探针超出了资源限制（{limit}）被终止。",
    "run.signal": "探针被信号 {signal} 终止。",
    "run.uncaught": "探针在真实实现上失败：第 {line} 行抛出 {type}: {message}",
    "run.exit_code": "探针以退出码 {code} 结束（应为 0）。",
    "hint.assertion_on_real": (
        "真实的 ticketflow 是正确的：断言失败说明你写的期望值不对，或调用方式不对。对照 README.md 里的用例再检查。"
    ),
    "hint.not_implemented": "把 TODO 那段替换成你自己的代码。",
    "hint.sandbox_module": "评分沙箱里只能导入本练习需要的 ticketflow 模块：{modules}。你的探针导入了 {module}：从上面这些模块里导入你需要的名字。",
    "hint.import_error": "检查 import 的模块名和名称是否与 README.md 中一致（例如 ticketflow.workers.tasks）。",
    "hint.crash": "先在本地运行 python {file} 复现这个错误。",
    "hint.exit_code": "不要调用 sys.exit() 返回非 0；让断言失败来表示错误。",
    # -- code: output ----------------------------------------------------------------------
    "output.ok": "输出中按顺序包含要求的 {count} 行。",
    "output.missing": "输出中缺少第 {index} 行要求的内容：“{expected}”。",
    "hint.output": "每个用例打印一行：异常类型名、retries_so_far、retry、countdown_seconds、dead_letter，用空格分隔。",
    # -- code: observed calls --------------------------------------------------------------
    "calls.ok": "观察到了要求的调用。",
    "calls.unreadable": "无法读取记录下来的调用（记录格式不对：探针是否往评分器的通道里写了东西？）。",
    "calls.policy.none": "探针从未调用 BoundedRetryPolicy.decision（评分器观察的是真实的方法：替换、修改或绕过它的探针什么也没有测试）。",
    "calls.policy.config": (
        "探针使用的策略参数是 max_retries={max_retries}, base_delay_seconds={base_delay_seconds}；"
        "要求是 max_retries=2, base_delay_seconds=5。"
    ),
    "calls.policy.missing": "探针没有检查这些用例（异常类型 retries_so_far）：{cases}。",
    "calls.apply.too_few": "探针只调用了 {count} 次 apply_notification_once，至少需要 {needed} 次。",
    "calls.apply.distinct_events": (
        "探针投递了 {count} 个不同的事件：要把同一个 EventEnvelope（同一个 event_id）投递两次。"
    ),
    "calls.apply.results": "同一事件两次投递的返回值是 {results}，应为 [True, False]。",
    "calls.atomic.no_failure": (
        "没有一次 apply_notification_once 调用抛出异常：要在 receipt 和业务任务之间注入一次失败"
        "（例如 engine 的 before_cursor_execute 监听器在 INSERT INTO business_tasks 时抛出）。"
    ),
    "calls.atomic.no_redelivery": "注入失败之后，没有一次重投返回 True。",
    "calls.atomic.no_duplicate": "成功重投之后，没有再投递一次来确认重复投递返回 False。",
    # -- code: mutants ---------------------------------------------------------------------
    "mutant.killed": "探针发现了这个错误实现（{mutant}）。",
    "mutant.survived": "你的探针在错误实现下仍然通过（退出码 0）：{mutant}。",
    "mutant.skipped": "没有评估：探针必须先在真实实现上通过，才能说明它能发现错误实现。",
    "mutant.constant_delay": "退避不增长：每次重试的 countdown 都等于 base_delay_seconds（5, 5, …）",
    "mutant.constant_delay.hint": "断言 retries_so_far=1 时 countdown 正好是 10，而不只是“会重试”。",
    "mutant.exponent_off_by_one": "指数从 1 开始：countdown 是 10, 20 而不是 5, 10",
    "mutant.exponent_off_by_one.hint": "断言 retries_so_far=0 时 countdown 正好是 5。",
    "mutant.off_by_one_bound": "重试上限差一（用 > 代替 >=）：retries_so_far=2 时仍然重试",
    "mutant.off_by_one_bound.hint": "断言 retries_so_far=2 时 retry 为 False、dead_letter 为 True。",
    "mutant.gives_up_early": "过早放弃：retries_so_far=1 时就进入死信",
    "mutant.gives_up_early.hint": "断言 retries_so_far=1 时仍然 retry=True、countdown=10。",
    "mutant.retries_any_error": "不区分错误类型：ValueError 也被重试",
    "mutant.retries_any_error.hint": "断言 ValueError 的决定是 (False, None, True)。",
    "mutant.never_dead_letters": "从不进入死信：重试耗尽或永久错误时 dead_letter 仍为 False",
    "mutant.never_dead_letters.hint": "断言耗尽重试和 ValueError 两种情况下 dead_letter 都是 True。",
    "mutant.no_dedupe": "不去重：忽略 receipt 的插入结果，每次投递都写业务任务并返回 True",
    "mutant.no_dedupe.hint": "断言第二次调用返回 False，并且业务任务只有 1 条。",
    "mutant.always_true": "总是返回 True：重复投递也报告为“已生效”",
    "mutant.always_true.hint": "断言重复投递返回 False（用 is False，而不是只看计数）。",
    "mutant.returns_none": "返回 None：写入正确，但忘了 return True/False",
    "mutant.returns_none.hint": "用 is True / is False（或 == (True, False)）断言两次的返回值。",
    "mutant.receipt_without_task": "只提交 receipt，不写业务任务",
    "mutant.receipt_without_task.hint": "查询业务任务（BusinessTask）的数量并断言为 1。",
    "mutant.task_twice": "第一次投递就写了两条业务任务",
    "mutant.task_twice.hint": "断言业务任务恰好 1 条（== 1，而不是 >= 1）。",
    "mutant.dedupe_without_receipt": "靠查询业务任务去重，从不写 receipt",
    "mutant.dedupe_without_receipt.hint": "查询 receipt（NotificationReceipt）的数量并断言为 1。",
    "mutant.receipt_committed_first": "receipt 先单独提交，再在第二个事务里写业务任务",
    "mutant.receipt_committed_first.hint": "注入失败之后断言 receipt 和业务任务都是 0 条。",
    "mutant.effect_committed_first": "业务任务先单独提交，再在第二个事务里写 receipt",
    "mutant.effect_committed_first.hint": (
        "成功重投之后再投递一次：断言返回 False，并且仍然只有 1 条 receipt 和 1 条业务任务。"
    ),
    "mutant.effect_error_swallowed": "receipt 先提交；写业务任务失败时吞掉异常并返回 True",
    "mutant.effect_error_swallowed.hint": (
        "断言注入的失败会从 apply_notification_once 抛出来（try/except/else: raise AssertionError）。"
    ),
    # -- code: twins, outcomes, isolation -------------------------------------------------
    "check.equivalents": "依赖行为，而不是代码的写法",
    "twin.ok": "探针在 {count} 个行为相同、写法不同的正确实现上也通过了。",
    "twin.skipped": "没有评估：探针必须先在真实实现上通过。",
    "twin.failed": "探针在一个写法不同但同样正确的实现上失败了（{twin}）：{outcome}。它的结果取决于代码是怎么写的，而不是代码做了什么。",
    "hint.twin": "只通过调用函数、检查它的返回值和它留在数据库里的状态来判断对错。不要检查字节码、函数对象、源代码或具体发出的 SQL 语句，也不要和从磁盘加载的副本比较。",
    "twin.loop_backoff": "用循环把 countdown 翻倍（而不是计算 2**n），条件合并成一个",
    "twin.shift_backoff": "用位移（base << n）计算 countdown，用位置参数构造 RetryDecision",
    "twin.savepoint_effect": "在同一事务的 SAVEPOINT 里写业务任务",
    "twin.orm_effect": "在同一事务里用 ORM 对象（session.add + flush）写业务任务",
    "mutant.not_credible": "不计分：探针在写法不同的正确实现上也会失败，所以它在这里失败说明不了什么。",
    "mutant.survived_unnoticed": "你的探针在错误实现下仍然通过（退出码 0）：{mutant}。可它其实得到了不同的答案：第 {call} 次调用（{question}）真实实现返回 {real}，这个错误实现返回 {wrong}。请断言这个值；如果已经断言了，确认断言真的能失败（没有被 try/except 吞掉，比较的对象的 __eq__ 没有说谎，也没有 os._exit(0) 或 atexit 钩子）。",
    "outcome.uncaught": "第 {line} 行抛出 {type}: {message}",
    "outcome.exit_code": "退出码 {code}",
    "outcome.timeout": "运行超过 {seconds} 秒被终止",
    "outcome.limit": "超出资源限制（{limit}）",
    "outcome.signal": "被信号 {signal} 终止",
    "report.weak_isolation": "注意：这次检查没有使用隔离沙箱（rlimits 模式）：探针可以读取参考答案和评分器的文件。用来自查没有问题，但不能作为正式评分。",
    "error.isolation_unknown": "GRADER_ISOLATION={given} 无效：可选 auto、namespaces 或 rlimits。",
    "error.isolation_unavailable": "GRADER_ISOLATION=namespaces 要求隔离沙箱，但这台机器上不可用：{reason}。",
    "error.weak_isolation": "正式评分需要隔离沙箱（namespaces 模式），这次检查用的是 {isolation} 模式。",
    # -- prose -----------------------------------------------------------------------------
    "prose.not_started": "{file} 还是起始模板，尚未开始作答。",
    "prose.too_short": "回答只有 {chars} 个非空白字符（至少需要 {needed} 个）：请把每种情况都解释清楚。",
    "prose.length_ok": "回答长度足够（{chars} 个非空白字符）。",
    "concept.found": "找到了这个要点。",
    "concept.missing": "似乎缺少这个要点：{concept}。",
    "concept.EX-11-02.late_ack_redelivery": "handler 开始前 Worker 被 kill：late ACK 还没发生，broker 重投",
    "concept.EX-11-02.redelivery_is_not_retry": "broker 重投不消耗 Celery 的 retry 计数",
    "concept.EX-11-02.receipt_makes_duplicate_a_no_op": (
        "副作用提交后、ACK 前被 kill：重投时 event receipt 让第二次执行变成 duplicate/no-op"
    ),
    "concept.EX-11-02.bounded_task_retry": (
        "handler 抛出可重试错误：task 主动 retry(countdown=…)，受 max_retries 约束"
    ),
    "concept.EX-11-02.idempotency_on_every_path": "三种时序都会让同一事件再次到达，幂等不能只加在 retry 分支",
    "concept.EX-12-02.receipt_first_loses_notification": "先提交 receipt、再写副作用：中间崩溃会丢通知",
    "concept.EX-12-02.redelivery_sees_receipt_and_skips": "重投时 receipt 已存在，被当作重复而跳过",
    "concept.EX-12-02.effect_first_duplicates_notification": "先写副作用、后单独插 receipt：中间崩溃后重投会重复通知",
    "concept.EX-12-02.crash_between_the_two_commits": "问题出在两次提交之间的崩溃窗口",
    "concept.EX-12-02.fix_is_one_transaction": "解决办法：receipt 和副作用放进同一个事务（原子）",
    "concept.EX-13-02.unique_constraint_decides": "由 event_id 上的唯一约束决定谁赢",
    "concept.EX-13-02.select_then_insert_races": "先 SELECT 再 INSERT 有竞态：两边都可能看到“不存在”",
    "concept.EX-13-02.first_insert_wins": "先插入（并提交）receipt 的事务获胜",
    "concept.EX-13-02.loser_changes_nothing": "失败的一方不写业务任务、返回 False（回滚）",
    "concept.EX-13-02.postgresql_loser": (
        "PostgreSQL：后来者等待前者的行锁，之后 ON CONFLICT DO NOTHING 不返回行（普通 INSERT 则 IntegrityError 并中止事务）"
    ),
    "concept.EX-13-02.sqlite_loser": "SQLite：同一时刻只有一个写者，后来者等待锁（或得到 database is locked）",
    # -- exercises ---------------------------------------------------------------------------
    "exercise.EX-11-01.title": "探测有界重试策略",
    "exercise.EX-11-02.title": "同一事件再次到达的三种时序",
    "exercise.EX-12-01.title": "同一事件投递两次只生效一次",
    "exercise.EX-12-02.title": "两种非原子顺序为什么都会出错",
    "exercise.EX-13-01.title": "receipt 与副作用的原子性",
    "exercise.EX-13-02.title": "两个连接上的重复投递竞争",
    # -- summaries, statuses, labels ----------------------------------------------------------
    "summary.passed": "全部检查通过。",
    "summary.failed": "{failed} 项检查未通过。",
    "summary.needs_review": "已提交，等待助教评阅（暂定得分仅供参考）。",
    "summary.not_started": "尚未开始。",
    "status.passed": "通过",
    "status.failed": "未通过",
    "status.error": "错误",
    "status.needs_review": "待评阅",
    "status.not_started": "未开始",
    "status.unchecked": "已修改，未检查",
    "kind.code": "代码",
    "kind.prose": "文字",
    "label.hint": "提示",
    "label.evidence": "你的程序的输出（原样显示）",
    "label.score": "得分",
    "label.check": "检查项",
    "label.result": "结果",
    "label.points": "分数",
    "label.details": "说明",
    "label.pass": "通过",
    "label.fail": "未通过",
    "list.id": "练习",
    "list.kind": "类型",
    "list.title": "标题",
    "list.points": "分数",
    "list.status": "状态",
    "list.footer": "运行 grader check <练习> 查看详细反馈。",
    # -- release (instructors) ----------------------------------------------------------
    "error.release_out_not_empty": "{out} 已存在且不是空文件夹。请换一个新的输出文件夹（grader release --out 新文件夹）。",
    "error.release_out_inside": "输出文件夹 {out} 在课程目录 {root} 里面：请选择课程目录之外的文件夹。",
    "error.release_redaction": "无法从消息目录中删除这些键：{keys}。学生版没有生成；请报告这个问题。",
    "release.done": "学生版已写入 {out}：{files} 个文件；未包含的内容见 {manifest}。",
    "release.step.copy": "复制 {name}",
    "release.step.exercises": "写入题面和全新的起始文件",
    "release.step.redact": "删去文字题评分规则及其要点文字",
}
