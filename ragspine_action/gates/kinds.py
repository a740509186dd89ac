"""Closed kinds: a role, party or term put where the context names another of its kind.

"Expense claims above 5,000 EUR must be approved by the Chief Executive Officer" against
"… by the Chief Financial Officer" keeps all but one word (and the word-overlap rule reads
`Chief`, `Officer` as found); "The tenant is responsible for structural repairs" against
"The landlord is responsible …; the tenant pays …" keeps every word; 员工请事假须提前3天申请
against 员工请年假… changes one character. Each of these names a member of a small closed
kind — an office (CEO, CFO, line manager, HR, 首席财务官, 班组长 …), a party to a contract
(landlord/tenant, buyer/seller, insurer/insured, 甲方/乙方, 出租人/承租人 …), an employment
type, a kind of leave (年假/病假/事假 …), of deposit (定期/活期), of card (借记卡/信用卡), of
payment (首付/尾款), a form (oral/written, 口头/书面), a patient group (成人/儿童) … — where
the context clause the claim matches names another member of the same kind and not the
claim's. Writings of one member are one (CFO = Chief Financial Officer = 首席财务官; HR =
human resources = 人力资源; line manager = manager = 直属经理).
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "kind_problem",
    "matched_kind_problem",
    "may_name_a_member",
    "names_a_member",
    "order_problem",
    "two_members",
]

# kind -> member -> writings (English lower case, matched as whole words, a plural s
# allowed; Chinese as written).
_KINDS: dict[str, dict[str, tuple[str, ...]]] = {
    "office": {
        "ceo": ("ceo", "chief executive officer", "chief executive", "首席执行官", "总裁"),
        "cfo": ("cfo", "chief financial officer", "首席财务官"),
        "coo": ("coo", "chief operating officer", "首席运营官"),
        "cto": ("cto", "chief technology officer", "首席技术官"),
        "cio": ("cio", "chief information officer", "首席信息官"),
        "cro": ("cro", "chief risk officer", "首席风险官"),
        "chair": ("chairman", "chairwoman", "chairperson", "board chair", "董事长"),
        "general manager": ("general manager", "总经理"),
        "finance director": ("finance director", "financial director", "财务总监", "财务经理"),
        # a director who signs off ("with the prior approval of a director"), not the board
        "director": ("director", "managing director", "总监"),
        "budget holder": ("budget holder", "budget owner", "预算负责人"),
        "manager": (
            "line manager",
            "direct manager",
            "reporting manager",
            "manager",
            "supervisor",
            "直属经理",
            "直线经理",
            "直属上级",
            "部门经理",
            "主管",
        ),
        "hr": (
            "hr",
            "human resources",
            "hr department",
            "people team",
            "人力资源部",
            "人力资源",
            "人事部",
            "hr部门",
        ),
        "department head": ("department head", "head of department", "部门负责人", "部门主管"),
        "team lead": ("team lead", "team leader", "shift leader", "班组长", "组长"),
        "operator": ("line operator", "machine operator", "operator", "操作员", "操作工"),
        "inspector": ("quality inspector", "inspector", "质检员", "检验员"),
        "engineer": ("process engineer", "工艺工程师"),
        "auditor": ("internal auditor", "auditor", "审计师", "内审"),
        "compliance officer": ("compliance officer", "合规官", "合规负责人"),
    },
    "employment": {
        "employee": ("employee", "staff member", "员工", "雇员", "职工"),
        "employer": ("employer", "雇主", "用人单位"),
        "contractor": ("contractor", "外包人员", "承包商"),
        "intern": ("intern", "实习生"),
        "consultant": ("consultant", "顾问"),
        # the people a business deals with, beside its own staff ("Customer records" for
        # "Employee records")
        "customer": ("customer", "client", "客户"),
        "supplier": ("supplier", "vendor", "供应商"),
    },
    "party": {
        "landlord": ("landlord", "lessor", "出租人", "出租方", "房东"),
        "tenant": ("tenant", "lessee", "承租人", "承租方", "租客", "租户"),
        "buyer": ("buyer", "purchaser", "买方", "买受人"),
        "seller": ("seller", "卖方", "出卖人"),
        "insurer": ("insurer", "insurance company", "保险人", "保险公司"),
        "insured": ("insured", "policyholder", "policy holder", "被保险人", "投保人"),
        "lender": ("lender", "贷款人", "出借人"),
        "borrower": ("borrower", "借款人"),
        "licensor": ("licensor", "许可方"),
        "licensee": ("licensee", "被许可方"),
        "sender": ("sender", "shipper", "consignor", "寄件人", "发货人", "托运人"),
        "recipient": ("recipient", "consignee", "addressee", "收件人", "收货人"),
        "transferor": ("transferor", "original holder", "转让人", "原持有人"),
        "transferee": ("transferee", "受让人"),
        "party a": ("party a", "甲方"),
        "party b": ("party b", "乙方"),
    },
    "leave": {
        "annual leave": ("annual leave", "vacation leave", "年假", "年休假"),
        "sick leave": ("sick leave", "病假"),
        "personal leave": ("personal leave", "事假"),
        "marriage leave": ("marriage leave", "wedding leave", "婚假"),
        "maternity leave": ("maternity leave", "产假"),
        "paternity leave": ("paternity leave", "陪产假"),
        "bereavement leave": ("bereavement leave", "compassionate leave", "丧假"),
        "unpaid leave": ("unpaid leave", "无薪假"),
    },
    "deposit": {
        "fixed deposit": ("fixed deposit", "time deposit", "term deposit", "定期"),
        "demand deposit": ("demand deposit", "current account", "活期"),
    },
    "card": {
        "debit card": ("debit card", "借记卡"),
        "credit card": ("credit card", "信用卡"),
    },
    "payment": {
        "down payment": ("down payment", "首付款", "首付", "首期款"),
        "final payment": ("final payment", "balance payment", "尾款"),
        "deposit payment": ("定金", "订金"),
    },
    "form": {
        "oral": ("oral", "verbal", "口头"),
        "written": ("written", "书面"),
    },
    "patients": {
        "adult": ("adult", "成人", "成年人"),
        "child": ("child", "children", "儿童", "小儿"),
    },
    "care": {
        "inpatient": ("inpatient", "住院"),
        "outpatient": ("outpatient", "门诊"),
    },
    "resource": {
        "cpu": ("cpu",),
        "memory": ("memory", "ram", "内存"),
        "disk": ("disk", "storage", "磁盘", "硬盘"),
    },
    "node": {
        "primary": ("primary", "主库", "主节点"),
        "standby": ("standby", "replica", "备库", "备节点"),
    },
    "plan": {
        "basic plan": ("basic plan", "basic tier", "basic package", "基础版", "基础套餐"),
        "standard plan": ("standard plan", "standard tier", "标准版", "标准套餐"),
        "premium plan": ("premium plan", "premium tier", "premium package", "高级版", "高级套餐"),
        "enterprise plan": ("enterprise plan", "enterprise tier", "企业版"),
    },
    "date": {
        "application date": ("application date", "date of application", "投保申请日", "申请日"),
        "effective date": (
            "effective date",
            "start date",
            "commencement date",
            "合同生效日",
            "生效日",
        ),
        "signing date": ("signing date", "date of signing", "签约日", "签署日"),
        "due date": ("due date", "到期日"),
        "delivery date": (
            "delivery date",
            "date of delivery",
            "交付日",
            "交货日",
            "收货之日",
            "收货日",
            "签收之日",
            "签收日",
        ),
        "shipping date": (
            "shipping date",
            "date of shipment",
            "dispatch date",
            "date of dispatch",
            "寄出之日",
            "发货之日",
            "发货日",
        ),
        "purchase date": ("purchase date", "date of purchase", "购买之日", "购买日"),
        "claim date": ("claim date", "date of claim", "索赔日", "理赔申请日"),
    },
    "channel": {
        "online": ("online", "线上", "网上", "在线"),
        "offline": ("offline", "线下", "柜台"),
    },
    "peril": {
        "fire": ("fire", "fire damage", "火灾", "火灾损失"),
        "water": ("water damage", "water leak", "水渍", "水浸", "水管爆裂"),
        "flood": ("flood", "flooding", "洪水", "水灾"),
        "storm": ("storm", "windstorm", "typhoon", "台风", "暴风"),
        "theft": ("theft", "burglary", "盗窃", "盗抢"),
        "earthquake": ("earthquake", "地震"),
    },
    "device": {
        "phone": ("phone", "mobile phone", "smartphone", "手机"),
        "laptop": ("laptop", "notebook computer", "笔记本电脑"),
        "desktop": ("desktop", "desktop computer", "台式机", "台式电脑"),
        "tablet": ("tablet", "平板电脑", "平板"),
        "usb drive": ("usb drive", "usb stick", "flash drive", "thumb drive", "u盘"),
    },
    "benefit": {
        "dental": ("dental", "牙科", "口腔"),
        "optical": ("optical", "vision", "eye care", "眼科", "视力"),
        "maternity": ("maternity benefit", "生育"),
    },
    "loan": {
        "mortgage": ("mortgage", "home loan", "housing loan", "住房贷款", "房贷", "按揭"),
        "personal loan": ("personal loan", "个人贷款", "个人消费贷款", "消费贷"),
        "car loan": ("car loan", "auto loan", "车贷", "汽车贷款"),
        "student loan": ("student loan", "助学贷款"),
        "business loan": ("business loan", "企业贷款", "经营贷"),
    },
    "correspondence": {
        "email": ("email", "e-mail", "电子邮件", "邮件"),
        "letter": ("letter", "信函", "书信", "信件"),
        "phone call": ("phone call", "telephone", "来电", "电话"),
        "sms": ("sms", "text message", "短信"),
        "chat": ("live chat", "online chat", "在线客服"),
    },
    "insurance line": {
        "health insurance": (
            "health insurance",
            "medical insurance",
            "健康险",
            "医疗险",
            "健康保险",
        ),
        "motor insurance": (
            "motor insurance",
            "car insurance",
            "auto insurance",
            "车险",
            "汽车保险",
        ),
        "life insurance": ("life insurance", "寿险", "人寿保险"),
        "property insurance": ("property insurance", "财产险", "财险", "家财险"),
        "travel insurance": ("travel insurance", "旅游险", "旅行险", "旅游保险"),
        "critical illness": ("critical illness", "重疾险", "重大疾病保险"),
        "accident insurance": ("accident insurance", "personal accident", "意外险", "意外伤害保险"),
    },
    "trip point": {
        "departure": ("departure", "date of departure", "出发", "离境"),
        "return": ("returning home", "return home", "return trip", "回国", "返程", "返回境内"),
    },
    "frequency": {
        "daily": ("daily", "every day", "each day", "每日", "每天"),
        "weekly": ("weekly", "every week", "each week", "每周", "每星期"),
        "monthly": ("monthly", "every month", "each month", "每月", "每个月"),
        "quarterly": ("quarterly", "every quarter", "each quarter", "每季度", "每季"),
        "annually": ("annually", "yearly", "every year", "each year", "每年", "每年度"),
        "one-off": ("one-off", "one-time", "once-off", "一次性"),
    },
    "eyewear": {
        "glasses": ("glasses", "spectacles", "eyeglasses", "眼镜", "框架眼镜"),
        "contact lenses": ("contact lenses", "contact lens", "隐形眼镜"),
    },
    "carer": {
        "primary carer": ("primary carer", "primary caregiver", "主要照顾者"),
        "secondary carer": ("secondary carer", "secondary caregiver", "次要照顾者"),
    },
    "account": {
        "privileged account": (
            "privileged account",
            "admin account",
            "administrator account",
            "特权账户",
            "管理员账户",
        ),
        "standard account": ("standard user account", "standard account", "普通用户账户"),
    },
    "pay": {
        "base salary": ("base salary", "basic salary", "base pay", "基本工资"),
        "total compensation": (
            "total compensation",
            "total pay",
            "total remuneration",
            "年度总收入",
            "总薪酬",
        ),
    },
    "timing": {
        "beforehand": ("事前", "事先"),
        "afterwards": ("事后",),
    },
    # an indicator's or a label's colour (the filter light turns red, not green); Chinese
    # as a colour word or after 变/亮/灯 only (红利, 绿色金融 are no signal)
    "colour": {
        "red": ("red", "红色", "变红", "亮红", "红灯"),
        "green": ("green", "绿色", "变绿", "亮绿", "绿灯"),
        "amber": ("amber", "yellow", "黄色", "橙色", "变黄", "亮黄", "黄灯"),
        "blue": ("blue", "蓝色", "变蓝", "亮蓝", "蓝灯"),
    },
}

_MEMBER: dict[str, tuple[str, str]] = {}
for _kind, _kind_members in _KINDS.items():
    for _member, _writings in _kind_members.items():
        for _writing in _writings:
            _MEMBER[_writing] = (_kind, _member)
_EN_WRITINGS = sorted((w for w in _MEMBER if w.isascii()), key=len, reverse=True)
_ZH_WRITINGS = sorted((w for w in _MEMBER if not w.isascii()), key=len, reverse=True)
_EN = re.compile(r"\b(" + "|".join(re.escape(w) for w in _EN_WRITINGS) + r")(?:s|es)?\b")
_ZH = re.compile(
    "|".join(re.escape(w) for w in _ZH_WRITINGS + [w for w in _EN_WRITINGS if len(w) <= 3]),
    re.IGNORECASE,
)
_EN_FIRST = frozenset(w.split()[0] for w in _EN_WRITINGS) | frozenset(
    w.split()[0] + "s" for w in _EN_WRITINGS
)
_ZH_FIRST = frozenset(w[0] for w in _ZH_WRITINGS)
# The first two characters of each Chinese writing: a first character alone (收, 地, 客)
# opens too many other words to be a trigger.
_ZH_PAIRS = frozenset(w[:2] for w in _ZH_WRITINGS)
_WORDS = re.compile(r"[a-z0-9]+")
_CLAUSE = re.compile(r"[,;:，；：。.!?！？]\s|[，；：。！？]|\b(?:and|but|while|whereas)\b|而|但")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_CJK_CONDITION_END = re.compile(r"[\u4e00-\u9fff]时\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_STOP = frozenset(
    ["the", "and", "for", "with", "its", "their", "this", "that", "are", "was", "were"]
)


def may_name_a_member(claim: str) -> bool:
    """A cheap test: a set look-up of the claim's words (first characters in Chinese)."""
    if claim.isascii():
        return not _EN_FIRST.isdisjoint(_WORDS.findall(claim.lower()))
    lower = claim.lower()
    if not _ZH_FIRST.isdisjoint(lower) and any(
        lower[i : i + 2] in _ZH_PAIRS for i in range(len(lower) - 1) if lower[i] in _ZH_FIRST
    ):
        return True
    return not _EN_FIRST.isdisjoint(_WORDS.findall(lower))


def names_a_member(text: str) -> bool:
    """Whether ``text`` names a member of a closed kind (房东, landlord, CFO): such a
    place is this module's to judge, with its writings (房东 = 出租人)."""
    return may_name_a_member(text) and bool(_members(text)[0])


def two_members(one: str, other: str) -> bool:
    """Whether ``one`` and ``other`` each name one member of a closed kind, and not the
    same one (a line manager and a director; not 房东 and 出租人)."""
    ours, theirs = _members(one)[0], _members(other)[0]
    return any(kind in theirs and not (members & theirs[kind]) for kind, members in ours.items())


def _named_in(text: str) -> tuple[list[tuple[re.Match[str], str, str]], str]:
    """Each writing of a member in ``text`` (its match, kind, member), in order, and the
    lower-cased text with them blanked."""
    pattern = _EN if text.isascii() else _ZH
    lower = text.lower()
    found = [
        (m, *_MEMBER[m.group(1) if pattern is _EN else m.group()]) for m in pattern.finditer(lower)
    ]
    return found, pattern.sub(" ", lower) if found else lower


def _members(text: str) -> tuple[dict[str, set[str]], str]:
    """The kinds' members ``text`` names, and the text with them blanked (so the rest is
    what matches a claim to a clause)."""
    found: dict[str, set[str]] = {}
    named, blanked = _named_in(text)
    for _, kind, member in named:
        found.setdefault(kind, set()).add(member)
    return found, blanked


def _keys(text: str) -> frozenset[str]:
    out = {w[:5] for w in _WORDS.findall(text) if (len(w) > 2 and w not in _STOP) or w.isdigit()}
    for run in _CJK_RUN.findall(text):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(out)


@lru_cache(maxsize=2048)
def _clauses(text: str) -> tuple[tuple[dict[str, set[str]], frozenset[str]], ...]:
    """Each clause's members by kind, and its keys: its other words, and the members it
    names as ``#member`` (so "unpaid leave" matches where the approver is swapped)."""
    out: list[tuple[dict[str, set[str]], frozenset[str]]] = []
    for sentence in _SENTENCE_END.split(text):
        first = len(out)
        fronted = ""  # a clause of fewer than two words and members goes with the next of
        # its sentence ("On the Premium plan, EU roaming is included …" is one clause)
        for piece in _CLAUSE.split(sentence):
            if not piece or piece.isspace():
                continue
            piece = fronted + " " + piece if fronted else piece
            found, rest = _members(piece)
            named = frozenset("#" + m for ms in found.values() for m in ms)
            keys = _keys(rest)
            if (found and len(keys) + len(named) < 2) or (
                found and _CJK_CONDITION_END.search(piece) is not None
            ):
                # (a Chinese condition naming a member, 指示灯变为红色时, goes with what it
                # conditions: 请及时更换滤网)
                fronted = piece
                continue
            fronted = ""
            out.append((found, keys | named))
        if fronted:
            found, rest = _members(fronted)
            keys = _keys(rest) | frozenset("#" + m for ms in found.values() for m in ms)
            if len(out) > first:
                # a last member joined on ("… the department head and the CEO."): one
                # list with the clause before it
                before, before_keys = out[-1]
                merged = {k: set(v) for k, v in before.items()}
                for kind, members in found.items():
                    merged.setdefault(kind, set()).update(members)
                out[-1] = (merged, before_keys | keys)
            else:
                out.append((found, keys))
    return tuple(out)


@lru_cache(maxsize=2048)
def _named(text: str) -> dict[str, frozenset[str]]:
    """The members a context text names, by kind (once per distinct text)."""
    found, _ = _members(text)
    return {kind: frozenset(members) for kind, members in found.items()}


def kind_problem(claim: str, contexts: tuple[str, ...], label: str) -> str | None:
    """Why a claim clause names a member of a closed kind where the context clause it
    matches names another (module docstring); None if none does."""
    named = [_named(text) for text in contexts]
    for found, keys in _clauses(claim):
        for kind, ours in found.items():
            if not any(kind in n and n[kind] - ours for n in named):
                continue  # no context names another member of the kind: nothing swapped
            # the clause's words and its other kinds' members match it to a context clause
            own = frozenset("#" + m for m in _KINDS[kind])
            rest = keys - own
            if len(rest) < 2:
                continue
            best, tied, keyed = 0, [], []
            for text in contexts:
                for said, theirs_keys in _clauses(text):
                    shared = len(rest & theirs_keys)
                    if shared > best:
                        best, tied, keyed = shared, [said], [(text, theirs_keys)]
                    elif shared == best and shared:
                        tied.append(said)
                        keyed.append((text, theirs_keys))
            if best < 2 or best * 2 < len(rest):
                continue  # no context clause says the same thing apart from its members
            others: list[set[str]] = []
            for said in tied:
                theirs = said.get(kind, set())
                if not theirs or not (ours - theirs) or not (theirs - ours):
                    break  # the clause names the claim's members (and perhaps more)
                others.append(theirs)
            else:
                if others and not any(
                    _elliptic_beside(kind, ours, text, keys) for text, keys in keyed
                ):
                    return (
                        f"names {', '.join(sorted(ours))!r} where {label} name "
                        f"{', '.join(sorted(others[0]))!r}"
                    )
    return None


def matched_kind_problem(claim: str, sentence: str, label: str) -> str | None:
    """Why ``claim`` names a member of a closed kind where ``sentence``, the context
    sentence it copies (the judge matched it and found most of its words there), names only
    others of that kind, or None.

    ``kind_problem`` pairs clauses; a sentence that names its member in a clause of its own
    ("… may incur import duties, which are payable by the recipient", 可能产生进口关税，该关
    税由收件人支付) has no clause the claim ("Import duties … are paid by the sender",
    进口关税由寄件人支付) matches with the member beside it. Here the whole sentence is read:
    none of the claim's members of the kind is in it, and another member is, in a short
    clause that only says who (three other words at most, a Chinese pair counting ½): a
    member in a clause of its own (被保险人因疾病被确诊…) may play another part."""
    ours, _ = _members(claim)
    if not ours:
        return None
    clauses = _clauses(sentence)
    for kind, members in ours.items():
        named: set[str] = set()
        for said, keys in clauses:
            there = said.get(kind, set())
            if not there:
                continue
            if there & members:
                break  # the sentence names the claim's member
            if sum(1.0 if k.isascii() else 0.5 for k in keys if not k.startswith("#")) > 3:
                break  # a clause of its own about that member, not a tail naming who
            named |= there
        else:
            if named:
                return (
                    f"names {', '.join(sorted(members))!r} where {label} name "
                    f"{', '.join(sorted(named))!r}"
                )
    return None


def _elliptic_beside(kind: str, ours: set[str], text: str, best: frozenset[str]) -> bool:
    """Whether ``text`` names the claim's members in a short clause that leaves its
    predicate to the clause the claim matched ("The enterprise plan includes a manager,
    but the standard plan doesn't", 企业版提供专属客服，标准版则不提供): both members are
    named, the answer contrasts them, and the polarity rule compares what each is said to
    do. The short clause is a denial and adds one word (doesn) or two Chinese character
    pairs (则不, 不提) of its own."""
    for said, keys in _clauses(text):
        if said.get(kind, set()) != ours:
            continue
        own = {k for k in keys if not k.startswith("#")}
        if not own & _NEGATED_KEYS and not any(ch in _CJK_NOT for k in own for ch in k):
            continue  # a denial left short: "… doesn't", 则不提供 (not "HR keeps records")
        extra = own - best
        if (len(extra) <= 1 or (all(not k.isascii() for k in extra) and len(extra) <= 2)) and len(
            own & best
        ) <= 1:
            return True
    return False


# The keys of a negation (doesn't, isn't: the words before the apostrophe) and the
# Chinese negation characters.
_NEGATED_KEYS = frozenset(["not", "doesn", "don", "isn", "aren", "won", "cannot", "never"])
_CJK_NOT = frozenset("不没未无非")


# A passive or an agent marker turns the order of the parties round ("The insured is
# notified by the insurer" says "The insurer notifies the insured"); read with the members
# blanked (被保险人 holds 被).
_PASSIVE = re.compile(r"\bby\b|被|由")


def _in_order(text: str) -> tuple[list[str], str]:
    """The members ``text`` names, in the order it names them (each once), and the text
    with them blanked; no members when the first two are of two kinds, or stand in one
    phrase (fewer than two words between them: "Emails from customers" is "Customer
    emails", no one acts on anyone)."""
    named, blanked = _named_in(text)
    first: dict[str, tuple[re.Match[str], str]] = {}
    for m, kind, member in named:
        first.setdefault(member, (m, kind))
    seen = list(first)
    if len(seen) >= 2:
        (one, kind_one), (two, kind_two) = first[seen[0]], first[seen[1]]
        between = one.string[one.end() : two.start()]  # (the lower-cased text's)
        if kind_one != kind_two or len(_keys(between)) < 2:
            return [], text.lower()  # two kinds (encryption on laptops), or one phrase
    return seen, blanked


@lru_cache(maxsize=2048)
def _ordered_clauses(text: str) -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """A context text's clauses that name two or more members in an order and no
    passive or agent marker: (members in order, the other words' keys); once per
    distinct text, as a passage is read for every claim."""
    out = []
    for sentence in _SENTENCE_END.split(text):
        for clause in _CLAUSE.split(sentence):
            members, rest = _in_order(clause)
            if len(members) >= 2 and _PASSIVE.search(rest) is None:
                out.append((tuple(members), _keys(rest)))
    return tuple(out)


def order_problem(claim: str, contexts: tuple[str, ...], label: str) -> str | None:
    """Two members named in one clause the other way round from the context clause that
    says the same (``保险人应在48小时内通知被保险人`` against ``被保险人应在48小时内通知
    保险人``; the sender and the recipient exchanged): who does what to whom is turned
    round, though every word is the context's. Not read when either clause has a
    passive or agent marker (``by``, 被, 由)."""
    for piece in _CLAUSE.split(claim):
        ours, rest = _in_order(piece)
        if len(ours) < 2 or _PASSIVE.search(rest) is not None:
            continue
        keys = _keys(rest)
        if len(keys) < 2:
            continue
        for text in contexts:
            for theirs, their_keys in _ordered_clauses(text):
                if set(theirs) != set(ours):
                    continue
                shared = len(keys & their_keys)
                if shared < 2 or shared * 2 < len(keys):
                    continue
                if list(theirs) != ours and list(theirs[:2]) == ours[:2][::-1]:
                    return (
                        f"names {ours[0]!r} and {ours[1]!r} the other way round from "
                        f"{label} (who does what to whom)"
                    )
    return None
