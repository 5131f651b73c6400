"""用 dataclass 写用例；断言信息是中文。"""
from dataclasses import dataclass

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


@dataclass(frozen=True)
class 用例:
    异常: BaseException
    已重试: int
    期望: tuple


策略 = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
全部 = [
    用例(RetryableTaskError("临时故障"), 0, (True, 5, False)),
    用例(RetryableTaskError("临时故障"), 1, (True, 10, False)),
    用例(RetryableTaskError("临时故障"), 2, (False, None, True)),
    用例(ValueError("格式错误"), 0, (False, None, True)),
]
for 例 in 全部:
    决定 = 策略.decision(例.异常, retries_so_far=例.已重试)
    实际 = (决定.retry, 决定.countdown_seconds, 决定.dead_letter)
    assert 实际 == 例.期望, f"第 {例.已重试} 次：得到 {实际}，应为 {例.期望}"
    print(type(例.异常).__name__, 例.已重试, *实际)
