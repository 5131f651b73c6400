# ruff: noqa: E501  (catalogue text reads best unwrapped)
"""The inbox's texts (``grader inbox``, ``grader submit --to``, ``grader roster tokens``),
zh and en side by side; merged into ``MESSAGES`` by ``grader.render.messages``."""

INBOX_MESSAGES: dict[str, dict[str, str]] = {
    "inbox.index": {
        "zh": "这是课程的提交收件箱。请在课程目录里运行：grader submit --to 本地址 --token 你的令牌",
        "en": "This is the course's hand-in inbox. From your course folder, run: grader submit --to THIS-ADDRESS --token YOUR-TOKEN",
    },
    "inbox.started": {
        "zh": "收件箱已在 {url} 上运行（Ctrl+C 停止）。学生提交：grader submit --to {url} --token 令牌",
        "en": "Inbox listening on {url} (Ctrl+C stops it). Students hand in with: grader submit --to {url} --token TOKEN",
    },
    "inbox.bad_student": {
        "zh": "收件箱拒绝了这次提交：学号缺失或无效。请用 --student 你的学号 再试。",
        "en": "The inbox refused the hand-in: the student id is missing or invalid. Try again with --student YOUR-ID.",
    },
    "inbox.bad_token": {
        "zh": "收件箱拒绝了这次提交：{student} 的令牌不对。请核对老师发给你的令牌（--token 或 GRADER_TOKEN），学号也要和名单一致。",
        "en": "The inbox refused the hand-in: that is not {student}'s token. Check the token your instructor sent you (--token or GRADER_TOKEN) and that the student id is the one on the class list.",
    },
    "inbox.too_many_failures": {
        "zh": "这台机器的令牌错误次数太多。请在 {seconds} 秒后再试，并先核对令牌。",
        "en": "Too many wrong tokens from this machine. Check your token, then try again in {seconds} s.",
    },
    "inbox.too_many_uploads": {
        "zh": "你刚刚提交了太多次。请在 {seconds} 秒后再试；你之前的提交都已保存。",
        "en": "Too many hand-ins in a short time. Try again in {seconds} s; your earlier hand-ins are all kept.",
    },
    "inbox.too_large": {
        "zh": "提交太大（上限 {limit} 字节），没有保存。请只提交练习文件（grader submit 会自动打包它们），并清除笔记本里的大输出。",
        "en": "The hand-in is too large (limit {limit} bytes) and was not stored. Hand in only the exercise files (grader submit packs them) and clear large notebook outputs.",
    },
    "inbox.empty": {
        "zh": "提交是空的，没有保存。请用 grader submit 打包并提交。",
        "en": "The hand-in was empty and was not stored. Use grader submit to pack and hand in.",
    },
    "inbox.incomplete": {
        "zh": "上传中途断开，没有保存。请再提交一次。",
        "en": "The upload broke off and nothing was stored. Hand in again.",
    },
    "inbox.bad_zip": {
        "zh": "收件箱检查了你的压缩包，拒绝保存：{detail} 请用 grader submit 重新打包后再提交。",
        "en": "The inbox checked your zip and did not store it: {detail} Pack it again with grader submit and hand in again.",
    },
    "error.inbox_busy": {
        "zh": "收件箱现在太忙，没能为 {student} 记录这次提交。请稍后再试。",
        "en": "The inbox was too busy to record {student}'s hand-in. Try again in a moment.",
    },
    "error.inbox_no_url": {
        "zh": "不知道往哪里提交：请加上 --to 收件箱地址，或设置 GRADER_INBOX（地址由老师给出）。不用收件箱时，用 --out FILE 只打包。",
        "en": "No inbox to hand in to: pass --to URL or set GRADER_INBOX (your instructor gives the address). To only pack a zip, use --out FILE.",
    },
    "error.inbox_bad_url": {
        "zh": "收件箱地址 {given} 不是 http:// 或 https:// 地址。请照老师给的地址原样填写。",
        "en": "The inbox address {given} is not an http:// or https:// address. Use the address exactly as your instructor gave it.",
    },
    "error.inbox_no_token": {
        "zh": "缺少提交令牌：请加上 --token 令牌，或设置 GRADER_TOKEN（令牌由老师发给你）。",
        "en": "No hand-in token: pass --token TOKEN or set GRADER_TOKEN (your instructor sends it to you).",
    },
    "error.inbox_unreachable": {
        "zh": "连不上收件箱 {url}：{detail}。请检查地址和网络，然后再试；什么都没有提交。",
        "en": "Cannot reach the inbox at {url}: {detail}. Check the address and your network, then try again; nothing was handed in.",
    },
    "error.inbox_refused": {
        "zh": "收件箱拒绝了这次提交，但没有说明原因。请把这条消息告诉老师。",
        "en": "The inbox refused the hand-in without saying why. Tell your instructor about this message.",
    },
    "error.inbox_sha_mismatch": {
        "zh": "{url} 回执里的 sha256 和你发出的文件不一致：请再提交一次，并告诉老师。",
        "en": "The receipt from {url} names another sha256 than the zip you sent: hand in again and tell your instructor.",
    },
    "error.inbox_no_folder": {
        "zh": "提交文件夹 {path} 不存在。请先创建它（mkdir），或用 --submissions 指定班级文件夹。",
        "en": "The submissions folder {path} does not exist. Create it first (mkdir), or pass the class folder with --submissions.",
    },
    "error.inbox_no_tokens": {
        "zh": "还没有学生有提交令牌，收件箱没有启动。请先 grader roster import 名单，再运行 grader roster tokens --out tokens.csv。",
        "en": "No student has a hand-in token yet, so the inbox did not start. Import the class list (grader roster import), then run grader roster tokens --out tokens.csv.",
    },
    "error.inbox_rotate_unknown": {
        "zh": "--rotate 的学号不在名单上：{given}。什么都没有改。",
        "en": "--rotate names ids that are not on the roster: {given}. Nothing was changed.",
    },
    "error.tokens_exist": {
        "zh": "{path} 已经存在，没有覆盖。加 --force 覆盖，或换一个文件名。",
        "en": "{path} exists and was not overwritten. Pass --force to overwrite it, or choose another name.",
    },
    "error.out_no_folder": {
        "zh": "文件夹 {path} 不存在：请先创建它，或换一个输出位置。什么都没有写入。",
        "en": "The folder {path} does not exist: create it first or choose another place. Nothing was written.",
    },
    "roster.empty_for_tokens": {
        "zh": "名单是空的：请先 grader roster import 名单，再生成令牌。",
        "en": "The roster is empty: import the class list (grader roster import) before making tokens.",
    },
    "roster.tokens_written": {
        "zh": "已把 {count} 名学生的令牌写入 {path}（换新 {rotated} 个）。这个文件含有密钥：每个学生只发给他自己的那一行。",
        "en": "Wrote {count} student token(s) to {path} ({rotated} rotated). The file holds secrets: send each student only their own line.",
    },
    "submit.handed_in": {
        "zh": "已提交到 {url}。回执：",
        "en": "Handed in to {url}. Receipt:",
    },
    "submit.receipt": {
        "zh": "  第 {version} 版，服务器收到时间 {time}，练习 {exercises}，{size} 字节，sha256 {sha}",
        "en": "  version {version}, received by the server at {time}, exercises {exercises}, {size} bytes, sha256 {sha}",
    },
    "submit.inbox_none": {
        "zh": "{url} 还没有你的提交。",
        "en": "{url} holds no hand-in of yours yet.",
    },
    "export.unmapped_canvas": {
        "zh": "警告：{count} 名学生不在名单上，已从 Canvas 文件中略去（Canvas 无法对应他们）：{students}。请用 grader roster import 导入 Canvas 成绩册导出的文件，或在 Canvas 中确认这些学生。",
        "en": "WARNING: {count} student(s) are not on the roster and were left out of the Canvas file (Canvas could not match them): {students}. Import Canvas's gradebook export with grader roster import, or check these students in Canvas.",
    },
    "error.roster_id_from": {
        "zh": "--id-from {given} 不适用于这个文件。可用的列：{allowed}。",
        "en": "--id-from {given} does not fit this file. Use one of: {allowed}.",
    },
    "error.roster_id_from_plain": {
        "zh": "{path} 是普通名单（有 id 列），不需要 --id-from；去掉它再导入。",
        "en": "{path} is a plain roster with an id column: --id-from is for Canvas and Moodle exports. Import it without --id-from.",
    },
    "error.roster_lms_id": {
        "zh": "{path} 第 {line} 行：{column} 是“{given}”，不能作为学号（只允许字母、数字、. _ -，最长 64 个字符）。换一列作学号（--id-from），或先在 LMS 中补全它；什么都没有导入。",
        "en": "{path}, line {line}: {column} is '{given}', which cannot be a student id (letters, digits, . _ - only, at most 64). Take the id from another column (--id-from) or fill it in the LMS first; nothing was imported.",
    },
    "error.roster_repeated": {
        "zh": "{path}：两名学生共用 {field}“{given}”（{first}、{line}）。每个值只能属于一个人：改正文件后重新导入；什么都没有导入。",
        "en": "{path}: two students share {field} '{given}' ({first}, {line}). Each must be one person's: correct the file and import it again; nothing was imported.",
    },
    "error.worksheet_unknown": {
        "zh": "{path} 第 {lines} 行的学生不在名单上（按邮箱或 ID number 都找不到）。请先导入 Moodle 的成绩导出文件，再导入评分表；什么都没有导入。",
        "en": "{path}, lines {lines}: these students are not on the roster (no match by email or ID number). Import Moodle's grade export first, then the grading worksheet; nothing was imported.",
    },
    "batch.lms_unknown_canvas_id": {
        "zh": "{name}：看起来是 Canvas 下载的文件，但名单上没有这个 Canvas ID 的学生，未评分。请导入最新的 Canvas 成绩册导出文件。",
        "en": "{name}: named as Canvas names its downloads, but no roster student has that Canvas id; not graded. Import Canvas's latest gradebook export.",
    },
    "batch.lms_unknown_participant": {
        "zh": "{name}：看起来是 Moodle 下载的文件夹，但名单上没有这个参与者编号，未评分。请导入该作业的评分表（grading worksheet）。",
        "en": "{name}: named as Moodle names its download folders, but no roster student has that participant number; not graded. Import the assignment's grading worksheet.",
    },
    "batch.lms_no_zip": {
        "zh": "{name}：Moodle 文件夹里没有恰好一个 .zip，未评分。学生应提交 grader submit 打包的 zip。",
        "en": "{name}: the Moodle folder does not hold exactly one .zip; not graded. Students hand in the zip grader submit packs.",
    },
}
