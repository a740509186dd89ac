"""The aa14 blind set as written by hand (see NOTES.md): regenerates pairs.jsonl."""

import json
from pathlib import Path

P, F = "pass", "fail"
ZH = []  # (domain, reference, answer, label, why)


def z(d, ref, *items):
    for ans, lab, why in items:
        ZH.append((d, ref, ans, lab, why))


# HR
z(
    "hr",
    "员工每年享有15天带薪年假。",
    ("员工每年可享受15天的带薪年假。", P, "synonym 享有/享受"),
    ("年度带薪年假为十五天。", P, "年度=每年, 十五=15"),
    ("员工每年享有10天带薪年假。", F, "wrong number"),
)
z(
    "hr",
    "试用期员工不享有年终奖。",
    ("试用期内的员工没有年终奖。", P, "不享有=没有"),
    ("试用期员工可以享有年终奖。", F, "negation flipped"),
)
z(
    "hr",
    "请病假超过3天需要提供医院证明。",
    ("病假超过三天的，须提交医院证明。", P, "三=3, 需要=须, 提供=提交"),
    ("病假超过3天无需提供医院证明。", F, "negation flipped"),
)
z(
    "hr",
    "员工离职须提前30天书面通知公司。",
    ("根据公司政策，离职需要提前三十天以书面形式通知。", P, "polite framing, 三十=30"),
    ("员工离职须提前15天书面通知公司。", F, "wrong number"),
)
z(
    "hr",
    "加班费按工资的1.5倍计算，周末加班按2倍计算。",
    ("周末加班按2倍工资计算。", P, "subset"),
    ("周末加班按1.5倍工资计算。", F, "swapped condition"),
)
z("hr", "产假为158天。", ("产假共158天。", P, "trivial paraphrase"))
z(
    "hr",
    "员工入职满一年后才可申请远程办公。",
    ("入职满1年之后，员工可以申请远程办公。", P, "一=1, 后/之后, 可/可以"),
    ("员工入职即可申请远程办公。", F, "condition dropped/changed"),
)
z(
    "hr",
    "培训费用由公司全额承担，员工无需支付。",
    ("员工不需要支付培训费用，公司会全额承担。", P, "reorder, 无需=不需要"),
    ("培训费用由员工承担。", F, "swapped entity"),
)
z(
    "hr",
    "年假不得跨年度累积。",
    ("年假不能累积到下一年度。", P, "不得=不能, paraphrase"),
    ("年假可以跨年度累积。", F, "negation flipped"),
)
z(
    "hr",
    "报销申请须在费用发生后60天内提交。",
    ("报销申请应在费用发生之后的60天以内提交。", P, "须=应, 内=以内"),
    ("报销申请须在费用发生后90天内提交。", F, "wrong number"),
)
z("hr", "员工不得在工作时间从事兼职。", ("工作时间内禁止员工做兼职。", P, "不得=禁止"))
z(
    "hr",
    "新员工未通过试用期考核的，公司可解除劳动合同。",
    ("新员工没有通过试用期考核，公司可以解除劳动合同。", P, "未=没有"),
    ("新员工未通过试用期考核的，公司不可解除劳动合同。", F, "negation added"),
)
z("hr", "所有员工都须参加年度安全培训。", ("员工每年都须参加安全培训。", P, "年度=每年"))
z("hr", "部分员工可申请弹性工作制。", ("所有员工都可申请弹性工作制。", F, "widened quantifier"))
z(
    "hr",
    "每月最多报销一万元。",
    ("每月报销上限为10,000元。", P, "一万=10,000, 最多=上限"),
    ("每月最多报销十万元。", F, "wrong number"),
)
z(
    "hr",
    "审批流程需要两周。",
    ("审批流程需要14天。", P, "两周=14天 exact"),
    ("审批流程需要两天。", F, "wrong number/unit"),
)
# finance
z(
    "fin",
    "单笔转账金额不超过5万元。",
    ("单笔转账最多5万元。", P, "不超过=最多"),
    ("单笔转账至多50,000元。", P, "5万=50,000, 至多"),
    ("单笔转账不超过50万元。", F, "wrong number"),
)
z(
    "fin",
    "提前还款不收取违约金。",
    ("提前还款无需支付违约金。", P, "negation form"),
    ("提前还款需要支付违约金。", F, "negation flipped"),
)
z(
    "fin",
    "该理财产品的年化收益率为3.5%。",
    ("这款理财产品年化收益率是百分之三点五。", P, "百分之三点五=3.5%"),
    ("该理财产品的年化收益率为5.3%。", F, "wrong number"),
)
z(
    "fin",
    "信用卡账单日后20天为还款日。",
    ("还款日是账单日之后的第20天。", P, "reorder, 后/之后"),
    ("还款日是账单日之前20天。", F, "after->before"),
)
z(
    "fin",
    "境外取现每笔收取1%的手续费，最低10元。",
    ("境外取现手续费为每笔1%，最低收取10元。", P, "reorder"),
    ("境外取现手续费为每笔1%，最高收取10元。", F, "最低->最高"),
)
z(
    "fin",
    "未成年人不能开立信用卡账户。",
    ("未成年人不可以办理信用卡。", P, "不能=不可以, paraphrase"),
    ("未成年人可以开立信用卡账户。", F, "negation flipped"),
)
z(
    "fin",
    "定期存款提前支取按活期利率计息。",
    ("如果提前支取定期存款，利息将按活期利率计算。", P, "reorder, 计息=利息计算"),
    ("定期存款提前支取按定期利率计息。", F, "swapped entity"),
)
z(
    "fin",
    "发票须在开具后180天内认证。",
    ("发票开具后180天以内必须完成认证。", P, "须=必须, 内=以内"),
    ("发票开具后一年内认证即可。", F, "wrong period"),
)
z(
    "fin",
    "企业所得税税率为25%。",
    ("企业所得税的税率是百分之二十五。", P, "百分之二十五=25%"),
    ("企业所得税税率为15%。", F, "wrong number"),
)
z("fin", "逾期费率为5%。", ("逾期费率为百分之五。", P, "百分之五=5%"))
# IT / cloud
z(
    "it",
    "单可用区部署不提供跨可用区容灾，多可用区部署可提供跨可用区容灾。",
    (
        "多可用区部署支持跨可用区容灾，单可用区部署则不支持。",
        P,
        "reorder, both antonym terms named",
    ),
    ("单可用区部署也可以提供跨可用区容灾。", F, "swapped entity"),
)
z(
    "it",
    "单可用区实例的SLA为99.9%，多可用区实例的SLA为99.95%。",
    ("多可用区实例的SLA是99.95%，单可用区则为99.9%。", P, "reorder, both terms"),
    ("单可用区实例的SLA为99.95%。", F, "swapped entity"),
)
z(
    "it",
    "快照保留7天，过期后自动删除。",
    ("快照会保存七天，到期自动删除。", P, "七=7, 保留=保存"),
    ("快照永久保留，不会自动删除。", F, "contradiction"),
)
z(
    "it",
    "API每分钟最多调用100次。",
    ("API调用频率限制为每分钟不超过100次。", P, "最多=不超过"),
    ("API每秒最多调用100次。", F, "wrong unit"),
)
z(
    "it",
    "免费版不支持自定义域名。",
    ("免费版无法使用自定义域名。", P, "不支持=无法使用"),
    ("免费版支持自定义域名。", F, "negation dropped"),
)
z(
    "it",
    "密码长度不得少于8位，且须包含数字和字母。",
    ("密码至少8位，并且必须包含字母和数字。", P, "double negation positive, reorder"),
    ("密码长度不得超过8位。", F, "min->max"),
)
z(
    "it",
    "数据库备份每天凌晨2点执行。",
    ("每天凌晨两点执行数据库备份。", P, "两=2, reorder"),
    ("数据库备份每周执行一次。", F, "wrong frequency"),
)
z(
    "it",
    "删除存储桶前必须先清空其中的所有对象。",
    ("在删除存储桶之前，须先把桶内所有对象清空。", P, "前=之前, 必须=须"),
    ("删除存储桶前无需清空其中的对象。", F, "negation flipped"),
)
z(
    "it",
    "实例停止后不再收取计算费用，但仍收取存储费用。",
    ("实例停止后仍会收取存储费用。", P, "subset"),
    ("实例停止后不再收取存储费用。", F, "swapped entity"),
)
z(
    "it",
    "每个账号最多可创建5个VPC。",
    ("一个账号至多能创建五个VPC。", P, "至多=最多, 五=5"),
    ("每个账号最多可创建50个VPC。", F, "wrong number"),
)
z(
    "it",
    "本产品不支持Windows 7系统。",
    ("Windows 7系统无法使用本产品。", P, "reorder, negation form"),
)
z("it", "发布前须经过两名审核人批准。", ("发布前需要2名审核人批准。", P, "两=2, 须=需要"))
z(
    "it",
    "访客须登记后方可进入机房。",
    ("访客必须先登记才能进入机房。", P, "方可=才能"),
    ("访客无需登记即可进入机房。", F, "condition negated"),
)
# travel
z(
    "travel",
    "经济舱旅客可免费托运一件23公斤以内的行李。",
    ("经济舱乘客可以免费托运1件不超过23公斤的行李。", P, "以内=不超过, 一=1"),
    ("经济舱旅客可免费托运两件23公斤以内的行李。", F, "wrong count"),
    ("经济舱旅客可免费托运一件32公斤以内的行李。", F, "wrong number"),
)
z(
    "travel",
    "航班起飞前24小时内取消不予退款。",
    ("起飞前24小时以内取消的，不能退款。", P, "不予=不能"),
    ("航班起飞前24小时内取消可全额退款。", F, "negation flipped"),
)
z(
    "travel",
    "国际航班需提前3小时到达机场办理值机。",
    ("乘坐国际航班，应当提前三小时到机场办理值机手续。", P, "需=应当, 三=3"),
    ("国际航班需提前1小时到达机场。", F, "wrong number"),
)
z(
    "travel",
    "差旅住宿标准为一线城市每晚不超过600元。",
    ("在一线城市出差，住宿每晚最多600元。", P, "不超过=最多"),
    ("在一线城市出差，住宿每晚最多800元。", F, "wrong number"),
)
z(
    "travel",
    "持有效签证方可入境。",
    ("只有持有效签证才能入境。", P, "方可=才能"),
    ("无需签证即可入境。", F, "negation"),
)
z(
    "travel",
    "儿童票适用于2至12周岁的儿童。",
    ("2到12岁的儿童可以购买儿童票。", P, "至=到, 周岁=岁"),
    ("儿童票适用于2至14周岁的儿童。", F, "wrong number"),
)
z(
    "travel",
    "酒店入住时间为下午2点以后，退房时间为中午12点以前。",
    ("退房需在中午12点前完成。", P, "subset, 以前=前"),
    ("退房时间为下午2点以前。", F, "swapped condition"),
)
z(
    "travel",
    "改签免收手续费一次。",
    ("可免费改签一次。", P, "paraphrase"),
    ("可免费改签两次。", F, "wrong count"),
)
z(
    "travel",
    "出差需提前一周提交申请。",
    ("出差申请须提前7天提交。", P, "一周=7天"),
    ("出差需提前一个月提交申请。", F, "wrong period"),
)
z("travel", "仅限VIP会员享受免费升舱。", ("所有会员都可享受免费升舱。", F, "widened quantifier"))
# medical
z(
    "med",
    "该药每日服用两次，每次一片。",
    ("此药一天吃两次，每次1片。", P, "每日=一天, 一=1"),
    ("该药每日服用一次，每次两片。", F, "swapped numbers"),
)
z(
    "med",
    "孕妇禁用该药。",
    ("孕妇不得使用此药。", P, "禁用=不得使用"),
    ("孕妇可以使用该药。", F, "negation flipped"),
)
z(
    "med",
    "服药期间不得饮酒。",
    ("服药期间禁止饮酒。", P, "不得=禁止"),
    ("服药期间可以少量饮酒。", F, "negation flipped"),
)
z(
    "med",
    "空腹血糖正常值为3.9至6.1毫摩尔每升。",
    ("正常空腹血糖在3.9到6.1 mmol/L之间。", P, "unit form"),
    ("空腹血糖正常值为3.9至7.1毫摩尔每升。", F, "wrong number"),
)
z(
    "med",
    "接种疫苗后需留观30分钟。",
    ("打完疫苗后要观察半小时。", P, "半小时=30分钟"),
    ("接种疫苗后需留观15分钟。", F, "wrong number"),
)
z(
    "med",
    "术前8小时禁食。",
    ("手术前八小时内不能进食。", P, "禁食=不能进食"),
    ("术前2小时禁食。", F, "wrong number"),
)
z(
    "med",
    "儿童用量为成人的一半。",
    ("儿童剂量是成人剂量的二分之一。", P, "一半=二分之一"),
    ("儿童用量与成人相同。", F, "contradiction"),
)
z(
    "med",
    "该检查无需空腹。",
    ("做这项检查不需要空腹。", P, "无需=不需要"),
    ("该检查需要空腹。", F, "negation dropped"),
)
z(
    "med",
    "抗生素须遵医嘱使用，不可自行停药。",
    ("不能自己停用抗生素，应当按照医嘱使用。", P, "reorder, 不可=不能"),
    ("症状好转后可以自行停用抗生素。", F, "negation flipped"),
)
z("med", "门诊预约可提前7天进行。", ("门诊最早可以提前七天预约。", P, "七=7"))
# legal
z(
    "legal",
    "劳动合同试用期最长不得超过6个月。",
    ("试用期最长为六个月。", P, "double negation -> positive"),
    ("试用期最长不得超过12个月。", F, "wrong number"),
)
z(
    "legal",
    "诉讼时效期间为3年。",
    ("诉讼时效是三年。", P, "三=3"),
    ("诉讼时效是2年。", F, "wrong number"),
)
z(
    "legal",
    "未满16周岁的未成年人不得被招用。",
    ("用人单位不能招用不满十六周岁的未成年人。", P, "reorder, 未满=不满"),
    ("未满18周岁的未成年人不得被招用。", F, "wrong number"),
)
z(
    "legal",
    "合同解除需提前30日书面通知对方。",
    ("解除合同应提前三十日以书面形式通知对方。", P, "需=应, 三十=30"),
    ("解除合同可以口头通知对方。", F, "condition changed"),
)
z(
    "legal",
    "租客提前退租须支付一个月租金作为违约金。",
    ("提前退租的租客需要支付1个月租金的违约金。", P, "一=1"),
    ("提前退租的房东需要支付一个月租金作为违约金。", F, "swapped entity"),
)
z(
    "legal",
    "消费者自收到商品之日起7日内可无理由退货。",
    ("收货后七天以内，消费者可以无理由退货。", P, "日=天, 内=以内"),
    ("收货后十五天内，消费者可以无理由退货。", F, "wrong number"),
)
z(
    "legal",
    "定制商品不适用无理由退货。",
    ("定制商品不能无理由退货。", P, "negation form"),
    ("定制商品同样适用无理由退货。", F, "negation flipped"),
)
z(
    "legal",
    "未经著作权人许可，不得复制其作品。",
    ("复制作品必须得到著作权人的许可。", P, "double negation positive"),
    ("未经著作权人许可，可以复制其作品。", F, "negation flipped"),
)
z(
    "legal",
    "遗嘱须由两名以上见证人在场见证。",
    ("遗嘱需要至少两名见证人在场。", P, "以上=至少"),
    ("遗嘱只需一名见证人在场。", F, "wrong number"),
)
# insurance
z(
    "ins",
    "等待期为90天，等待期内出险不予赔付。",
    ("在90天等待期内发生的保险事故，保险公司不赔。", P, "paraphrase"),
    ("等待期为30天。", F, "wrong number"),
    ("等待期内出险也可以赔付。", F, "negation flipped"),
)
z(
    "ins",
    "既往症不在保障范围内。",
    ("既往症不属于保障范围。", P, "不在=不属于"),
    ("既往症在保障范围内。", F, "negation dropped"),
)
z(
    "ins",
    "门诊费用免赔额为500元，赔付比例为80%。",
    ("门诊的赔付比例是80%，免赔额500元。", P, "reorder"),
    ("门诊费用免赔额为800元，赔付比例为50%。", F, "wrong numbers"),
    ("门诊赔付比例为百分之八十。", P, "subset, 百分之八十=80%"),
)
z(
    "ins",
    "犹豫期为15天，犹豫期内退保可全额退还保费。",
    ("在15天犹豫期以内退保的，保费会全额退还。", P, "reorder"),
    ("犹豫期内退保只退还一半保费。", F, "contradiction"),
)
z(
    "ins",
    "投保年龄为出生满30天至65周岁。",
    ("出生满30天到65岁都可以投保。", P, "至=到"),
    ("投保年龄为出生满30天至70周岁。", F, "wrong number"),
)
z(
    "ins",
    "理赔申请须在事故发生后2年内提出。",
    ("事故发生之后两年以内要提出理赔申请。", P, "两=2, reorder"),
    ("理赔申请须在事故发生后2个月内提出。", F, "wrong unit"),
)
z(
    "ins",
    "酒驾导致的事故保险公司不承担赔偿责任。",
    ("因酒驾发生的事故，保险公司不负责赔偿。", P, "paraphrase"),
    ("酒驾导致的事故保险公司承担赔偿责任。", F, "negation dropped"),
)
z("ins", "保额最高为100万元。", ("保额最高一百万元。", P, "一百万=100万"))
# logistics
z(
    "log",
    "普通快递3至5个工作日送达。",
    ("普通快递一般三到五个工作日送达。", P, "三到五=3至5"),
    ("普通快递1至2个工作日送达。", F, "wrong numbers"),
)
z(
    "log",
    "偏远地区不提供次日达服务。",
    ("次日达服务不覆盖偏远地区。", P, "reorder"),
    ("偏远地区也提供次日达服务。", F, "negation dropped"),
)
z(
    "log",
    "单件包裹重量不超过30公斤。",
    ("每件包裹最重30公斤。", P, "不超过=最重"),
    ("单件包裹重量不超过30斤。", F, "wrong unit"),
)
z(
    "log",
    "订单满99元免运费。",
    ("订单金额达到99元即可免运费。", P, "满=达到"),
    ("订单满199元免运费。", F, "wrong number"),
)
z(
    "log",
    "易燃易爆物品禁止寄递。",
    ("易燃易爆物品不能寄送。", P, "禁止=不能"),
    ("易燃易爆物品可以寄递。", F, "negation flipped"),
)
z(
    "log",
    "签收前请当面验货，签收后不支持破损理赔。",
    ("签收之后不支持破损理赔，所以要在签收之前当面验货。", P, "reorder"),
    ("签收后仍可申请破损理赔。", F, "negation flipped"),
)
z(
    "log",
    "冷链运输全程温度保持在2至8摄氏度。",
    ("冷链全程温度控制在2℃到8℃之间。", P, "unit form"),
    ("冷链运输全程温度保持在零下18摄氏度以下。", F, "wrong number"),
)
z("log", "国际包裹清关通常需要3至7天。", ("国际包裹清关一般需要三至七天。", P, "三至七=3至7"))
z("log", "退货须在签收后7天内申请。", ("签收7天以后申请退货。", F, "within->after"))
z(
    "log",
    "仓库每天上午9点至下午6点营业。",
    ("仓库营业时间为每天9:00到18:00。", P, "time format"),
    ("仓库每天上午9点至下午5点营业。", F, "wrong number"),
)
z(
    "log",
    "到付件需收件人支付运费。",
    ("到付件的运费由收件人支付。", P, "reorder"),
    ("到付件的运费由寄件人支付。", F, "swapped entity"),
)
z("log", "保价费为声明价值的1%。", ("保价费按声明价值的百分之一收取。", P, "百分之一=1%"))
z("log", "快递员须在2小时内上门取件。", ("快递员会在两小时以内上门取件。", P, "两=2"))
z("log", "部分地区支持当日达。", ("全国所有地区都支持当日达。", F, "widened quantifier"))


# extra right answers (paraphrase classes)
z(
    "hr",
    "员工每年可以申请一次探亲假。",
    ("员工每年能申请一次探亲假。", P, "可以=能"),
    ("员工每年可申请一次探亲假。", P, "可以=可"),
    ("根据公司规定，员工每个年度可以申请一次探亲假。", P, "framing, 年度"),
)
z(
    "hr",
    "员工无需打卡即可参加线上培训。",
    ("参加线上培训不必打卡。", P, "无需=不必"),
    ("线上培训不用打卡。", P, "无需=不用"),
    ("参加线上培训必须打卡。", F, "negation flipped"),
)
z(
    "hr",
    "实习生未签订劳动合同。",
    ("实习生没有签订劳动合同。", P, "未=没有"),
    ("实习生已签订劳动合同。", F, "negation flipped"),
)
z(
    "hr",
    "绩效评估须在每年12月31日之前完成。",
    ("绩效评估应当在每年12月31日前完成。", P, "须=应当, 之前=前"),
    ("年度绩效评估要在12月31日以前完成。", P, "年度, 以前"),
    ("绩效评估须在每年12月31日之后完成。", F, "before->after"),
)
z(
    "fin",
    "员工不得使用公司信用卡支付个人消费。",
    ("公司信用卡不可用于个人消费。", P, "不得=不可"),
    ("员工禁止用公司信用卡支付个人消费。", P, "不得=禁止"),
    ("员工可以使用公司信用卡支付个人消费。", F, "negation dropped"),
)
z(
    "fin",
    "差旅报销单据须在出差结束后15天以内提交，逾期不予报销。",
    ("出差结束后最多15天内要交报销单据。", P, "subset, 以内=内"),
    ("逾期提交的报销单据不予报销，须在出差结束后15天内提交。", P, "reorder"),
    ("出差结束后15天以内提交报销单据，逾期也可以报销。", F, "negation flipped"),
)
z(
    "fin",
    "单日累计取现不超过2万元。",
    ("每天累计取现至多两万元。", P, "不超过=至多, 两万"),
    ("每天取现总额最多20,000元。", P, "2万=20,000"),
    ("单日累计取现不超过20万元。", F, "wrong number"),
)
z(
    "it",
    "生产环境变更必须经过审批，周末不得发布。",
    ("周末不能发布，生产环境的变更需要先审批。", P, "reorder, 不得=不能, 必须=需要"),
    ("生产环境变更无需审批。", F, "negation flipped"),
)
z(
    "it",
    "单可用区实例在可用区故障时会中断服务，多可用区实例会自动切换。",
    (
        "多可用区实例在可用区故障时会自动切换，而单可用区实例则会中断。",
        P,
        "both antonym terms, reorder",
    ),
    ("单可用区实例在可用区故障时会自动切换。", F, "swapped entity"),
)
z(
    "it",
    "日志默认保留180天。",
    ("默认情况下，日志会保存180天。", P, "framing"),
    ("日志默认保留18天。", F, "wrong number"),
)
z(
    "it",
    "临时凭证的有效期不得超过12小时。",
    ("临时凭证最多有效12小时。", P, "不得超过=最多"),
    ("临时凭证的有效期至少12小时。", F, "max->min"),
)
z(
    "travel",
    "酒店须在入住前48小时取消才能免费。",
    ("入住前48小时以前取消是免费的。", P, "paraphrase"),
    ("入住前4小时取消也可以免费。", F, "wrong number"),
)
z(
    "travel",
    "出差乘坐高铁可选二等座，不可选一等座。",
    ("出差坐高铁不能选一等座，可以选二等座。", P, "reorder, 不可=不能"),
    ("出差乘坐高铁可选一等座。", F, "swapped entity"),
)
z(
    "travel",
    "护照有效期须在6个月以上。",
    ("护照有效期不得少于6个月。", P, "以上 stated as double negation"),
    ("护照至少还要有六个月有效期。", P, "至少=以上"),
    ("护照有效期须在3个月以上。", F, "wrong number"),
)
z(
    "med",
    "该疫苗需接种两剂，间隔28天。",
    ("两剂之间间隔28天，共需接种2剂。", P, "reorder, 两=2"),
    ("该疫苗需接种三剂。", F, "wrong count"),
)
z(
    "med",
    "发热超过38.5摄氏度时可服用退烧药。",
    ("体温高于38.5℃时可以吃退烧药。", P, "unit form"),
    ("发热超过37.5摄氏度时可服用退烧药。", F, "wrong number"),
)
z(
    "med",
    "哺乳期妇女慎用，儿童禁用。",
    ("儿童不能使用，哺乳期妇女要谨慎使用。", P, "reorder"),
    ("儿童可以使用。", F, "negation flipped"),
)
z(
    "legal",
    "劳动者在试用期内提前三日通知用人单位，可以解除劳动合同。",
    ("试用期内，劳动者只要提前3天通知用人单位就能解除劳动合同。", P, "三日=3天"),
    ("试用期内，劳动者须提前30天通知用人单位才能解除劳动合同。", F, "wrong number"),
)
z(
    "legal",
    "用人单位不得扣押劳动者的身份证件。",
    ("用人单位禁止扣押劳动者的身份证。", P, "不得=禁止"),
    ("用人单位可以暂时保管劳动者的身份证件。", F, "contradiction"),
)
z(
    "ins",
    "本保险不承保高风险运动导致的伤害。",
    ("高风险运动造成的伤害不在承保范围内。", P, "reorder"),
    ("高风险运动导致的伤害也可以理赔。", F, "contradiction"),
)
z(
    "ins",
    "续保无需重新健康告知。",
    ("续保时不需要再做健康告知。", P, "无需=不需要"),
    ("续保须重新进行健康告知。", F, "negation flipped"),
)
z(
    "log",
    "大件商品需预约送货，送货前1天电话通知。",
    ("送货前一天会电话通知，大件商品需要提前预约。", P, "reorder, 一=1"),
    ("大件商品无需预约。", F, "negation flipped"),
)
z(
    "log",
    "海运货物不得含有锂电池。",
    ("海运的货物中不能有锂电池。", P, "不得=不能"),
    ("锂电池可以通过海运寄送。", F, "contradiction"),
)

z(
    "hr",
    "员工入职须提交体检报告。",
    ("新员工入职时必须提交体检报告。", P, "须=必须"),
    ("入职时需要提交体检报告。", P, "须=需要"),
)
z("hr", "年终奖于次年1月发放。", ("年终奖会在第二年的一月发放。", P, "次年=第二年, 一月=1月"))
z(
    "fin",
    "信用卡年费为200元，首年免年费。",
    ("第一年不收年费，之后每年200元。", P, "paraphrase, 首年=第一年"),
    ("信用卡首年免年费。", P, "subset"),
)
z(
    "fin",
    "每笔退款将在7个工作日内原路退回。",
    ("退款会在七个工作日以内按原路退回。", P, "七=7, 内=以内"),
)
z(
    "it",
    "未开启MFA的账号不能访问生产环境。",
    ("没有开启MFA的账号无法访问生产环境。", P, "未=没有, 不能=无法"),
    ("账号必须开启MFA才能访问生产环境。", P, "double negation positive"),
)
z(
    "it",
    "单可用区部署成本较低，多可用区部署可用性更高。",
    ("多可用区部署的可用性更高，单可用区部署的成本更低。", P, "reorder, both antonym terms"),
)
z("travel", "国内出差每日餐补为100元。", ("国内出差每天的餐补是一百元。", P, "每日=每天, 一百=100"))
z("travel", "行李超重部分每公斤收费50元。", ("超重行李按每公斤50元收取费用。", P, "reorder"))
z(
    "med",
    "术后一周内不可沾水。",
    ("手术后7天以内伤口不能碰水。", P, "一周=7天, 不可=不能"),
    ("术后一周以内禁止沾水。", P, "不可=禁止"),
)
z("legal", "合同自双方签字之日起生效。", ("双方签字后，合同即生效。", P, "paraphrase"))
z("ins", "保单生效后30天内为观察期。", ("保单生效之后的三十天以内属于观察期。", P, "三十=30"))
z(
    "log",
    "周日不提供上门取件服务。",
    ("上门取件服务周日不提供。", P, "reorder"),
    ("周日没有上门取件服务。", P, "不提供=没有"),
)
z(
    "log",
    "包裹在驿站免费保管3天，超时每天收取1元保管费。",
    ("驿站可以免费保管包裹三天。", P, "subset, 三=3"),
    ("超过3天后，每天要收1元保管费。", P, "subset"),
)

EN = []


def e(d, ref, *items):
    for ans, lab, why in items:
        EN.append((d, ref, ans, lab, why))


e(
    "hr",
    "Employees receive 15 days of paid annual leave per year.",
    ("Each employee gets fifteen paid vacation days annually.", P, "synonyms, fifteen=15"),
    ("Employees receive 20 days of paid annual leave per year.", F, "wrong number"),
)
e(
    "hr",
    "Probationary employees are not eligible for the annual bonus.",
    ("Employees on probation don't qualify for the annual bonus.", P, "negation form"),
    ("Probationary employees are eligible for the annual bonus.", F, "negation dropped"),
)
e(
    "hr",
    "Resignation requires 30 days' written notice.",
    (
        "According to the policy, you must give thirty days of written notice before resigning.",
        P,
        "framing, thirty=30",
    ),
    ("Resignation requires 14 days' written notice.", F, "wrong number"),
)
e(
    "fin",
    "Single transfers are limited to $50,000.",
    ("A single transfer cannot exceed $50,000.", P, "limited to=cannot exceed"),
    ("A single transfer can be at most $5,000.", F, "wrong number"),
)
e(
    "fin",
    "There is no penalty for early repayment.",
    ("Early repayment is penalty-free.", P, "negation form"),
    ("Early repayment incurs a penalty.", F, "negation dropped"),
)
e(
    "fin",
    "The annual interest rate is 3.5%.",
    ("The rate is 3.5 percent per year.", P, "percent form"),
    ("The annual interest rate is 5.3%.", F, "wrong number"),
)
e(
    "it",
    "Single-AZ deployments do not provide cross-zone failover; multi-AZ deployments do.",
    (
        "Multi-AZ deployments provide cross-zone failover, while single-AZ deployments don't.",
        P,
        "reorder, both antonym terms",
    ),
    ("Single-AZ deployments provide cross-zone failover.", F, "swapped entity"),
)
e(
    "it",
    "Snapshots are retained for 7 days and then deleted automatically.",
    ("Snapshots are kept for seven days before being automatically deleted.", P, "seven=7"),
    ("Snapshots are retained for 30 days.", F, "wrong number"),
)
e(
    "it",
    "The API allows at most 100 requests per minute.",
    ("The API is rate-limited to 100 requests per minute.", P, "paraphrase"),
    ("The API allows at most 100 requests per second.", F, "wrong unit"),
)
e(
    "it",
    "The free plan does not support custom domains.",
    ("Custom domains aren't available on the free plan.", P, "reorder, negation form"),
    ("The free plan supports custom domains.", F, "negation dropped"),
)
e(
    "it",
    "Passwords must be at least 8 characters long.",
    ("Passwords must not be shorter than 8 characters.", P, "double negation"),
    ("Passwords must be at most 8 characters long.", F, "min->max"),
)
e(
    "travel",
    "Economy passengers may check one bag of up to 23 kg free of charge.",
    (
        "In economy you can check 1 bag weighing no more than 23 kg for free.",
        P,
        "up to=no more than",
    ),
    ("Economy passengers may check two bags of up to 23 kg free of charge.", F, "wrong count"),
)
e(
    "travel",
    "Cancellations within 24 hours of departure are non-refundable.",
    ("If you cancel less than 24 hours before departure, you won't get a refund.", P, "paraphrase"),
    ("Cancellations within 24 hours of departure are fully refundable.", F, "negation flipped"),
)
e(
    "travel",
    "Arrive at the airport 3 hours before international flights.",
    (
        "For international flights, you should get to the airport three hours before departure.",
        P,
        "reorder, three=3",
    ),
    ("Arrive at the airport 1 hour before international flights.", F, "wrong number"),
)
e(
    "med",
    "Take one tablet twice daily.",
    ("The dose is 1 tablet two times a day.", P, "twice=two times"),
    ("Take two tablets once daily.", F, "swapped numbers"),
)
e(
    "med",
    "This drug must not be used during pregnancy.",
    ("Pregnant women should not take this medication.", P, "paraphrase"),
    ("This drug is safe to use during pregnancy.", F, "contradiction"),
)
e(
    "med",
    "Patients must fast for 8 hours before surgery.",
    ("No eating for eight hours before the operation.", P, "fast=no eating"),
    ("Patients must fast for 2 hours before surgery.", F, "wrong number"),
)
e(
    "legal",
    "The probation period may not exceed six months.",
    ("Probation can last at most 6 months.", P, "not exceed=at most"),
    ("The probation period may not exceed twelve months.", F, "wrong number"),
)
e(
    "legal",
    "The limitation period is three years.",
    ("The statute of limitations is 3 years.", P, "three=3"),
    ("The limitation period is two years.", F, "wrong number"),
)
e(
    "legal",
    "Consumers may return goods within 7 days of receipt without giving a reason.",
    (
        "Within seven days after receiving the goods, consumers can return them with no reason needed.",
        P,
        "reorder",
    ),
    (
        "Consumers may return goods within 30 days of receipt without giving a reason.",
        F,
        "wrong number",
    ),
)
e(
    "ins",
    "The waiting period is 90 days, and claims during the waiting period are not paid.",
    ("Claims arising in the 90-day waiting period are not covered.", P, "paraphrase"),
    ("Claims during the waiting period are paid in full.", F, "negation flipped"),
)
e(
    "ins",
    "Pre-existing conditions are not covered.",
    ("The policy excludes pre-existing conditions.", P, "not covered=excludes"),
    ("Pre-existing conditions are covered.", F, "negation dropped"),
)
e(
    "ins",
    "The deductible is $500 and the reimbursement rate is 80%.",
    ("It reimburses 80% after a $500 deductible.", P, "reorder"),
    ("The deductible is $800.", F, "wrong number"),
)
e(
    "log",
    "Standard shipping takes 3 to 5 business days.",
    ("Standard delivery usually arrives in three to five business days.", P, "three=3"),
    ("Standard shipping takes 1 to 2 business days.", F, "wrong numbers"),
)
e(
    "log",
    "Next-day delivery is not available in remote areas.",
    ("Remote areas are not eligible for next-day delivery.", P, "reorder"),
    ("Next-day delivery is available in remote areas.", F, "negation dropped"),
)
e(
    "log",
    "Orders over $99 ship free.",
    ("Shipping is free on orders above $99.", P, "reorder"),
    ("Orders over $199 ship free.", F, "wrong number"),
)
e(
    "log",
    "Packages may weigh no more than 30 kg.",
    ("The maximum package weight is 30 kg.", P, "no more than=maximum"),
    ("Packages may weigh no more than 30 lb.", F, "wrong unit"),
)
e(
    "ins",
    "Claims must be filed within two years of the incident.",
    ("You need to file a claim no later than 2 years after the incident.", P, "two=2"),
    ("Claims must be filed within two months of the incident.", F, "wrong unit"),
)
e(
    "travel",
    "Only VIP members receive free upgrades.",
    ("All members receive free upgrades.", F, "widened quantifier"),
)
e(
    "it",
    "Visitors must sign in before entering the server room.",
    ("Visitors can't enter the server room without signing in first.", P, "double negation"),
    ("Visitors may enter the server room without signing in.", F, "condition negated"),
)
e(
    "hr",
    "Approval takes two weeks.",
    ("Approval takes 14 days.", P, "two weeks=14 days"),
    ("Approval takes two days.", F, "wrong unit"),
)
e(
    "fin",
    "The reimbursement cap is $10,000 per month.",
    ("You can be reimbursed up to ten thousand dollars a month.", P, "ten thousand=10,000"),
)
e(
    "it",
    "Stopped instances are not billed for compute but are still billed for storage.",
    ("Stopped instances still incur storage charges.", P, "subset"),
    ("Stopped instances are not billed for storage.", F, "swapped entity"),
)
e(
    "hr",
    "Employees must complete security training every year.",
    ("Annual security training is mandatory for employees.", P, "annual=every year"),
)
e(
    "legal",
    "Customized products are excluded from no-reason returns.",
    ("Customized products can be returned without a reason.", F, "contradiction"),
)
e(
    "med",
    "The child dose is half the adult dose.",
    ("The child dose equals the adult dose.", F, "contradiction"),
)
e(
    "travel",
    "Check-in is after 2 pm and check-out is before 12 noon.",
    ("Check-out must be done before noon.", P, "subset, 12 noon=noon"),
    ("Check-out is before 2 pm.", F, "swapped condition"),
)

e(
    "hr",
    "Employees may request one family-visit leave per year.",
    ("Employees can apply for a single family-visit leave each year.", P, "may=can, one=single"),
    ("Employees may request two family-visit leaves per year.", F, "wrong number"),
)
e(
    "hr",
    "Performance reviews must be completed before December 31.",
    ("Reviews have to be done before 31 December.", P, "paraphrase"),
    ("Performance reviews must be completed after December 31.", F, "before->after"),
)
e(
    "fin",
    "Employees must not use the corporate card for personal expenses.",
    ("The corporate card cannot be used for personal purchases.", P, "must not=cannot"),
    ("Employees may use the corporate card for personal expenses.", F, "negation dropped"),
)
e(
    "it",
    "Logs are retained for 180 days by default.",
    ("By default, logs are kept for 180 days.", P, "reorder"),
    ("Logs are retained for 18 days by default.", F, "wrong number"),
)
e(
    "it",
    "Temporary credentials are valid for no more than 12 hours.",
    ("Temporary credentials expire after at most 12 hours.", P, "no more than=at most"),
    ("Temporary credentials are valid for at least 12 hours.", F, "max->min"),
)
e(
    "travel",
    "Passports must be valid for at least six months.",
    ("Your passport must have no less than 6 months of validity.", P, "double negation"),
    ("Passports must be valid for at least three months.", F, "wrong number"),
)
e(
    "med",
    "The vaccine requires two doses given 28 days apart.",
    ("Two doses are needed, spaced 28 days apart.", P, "reorder"),
    ("The vaccine requires three doses.", F, "wrong count"),
)
e(
    "legal",
    "Employers must not withhold employees' identity documents.",
    ("Employers are prohibited from keeping workers' ID documents.", P, "must not=prohibited"),
    ("Employers may keep employees' identity documents.", F, "contradiction"),
)
e(
    "ins",
    "Renewal does not require a new health declaration.",
    ("You don't need to submit a new health declaration when renewing.", P, "negation form"),
    ("Renewal requires a new health declaration.", F, "negation dropped"),
)
e(
    "log",
    "Sea freight must not contain lithium batteries.",
    ("Lithium batteries are not allowed in sea freight.", P, "reorder"),
    ("Lithium batteries can be shipped by sea.", F, "contradiction"),
)
e(
    "it",
    "Production changes require approval, and releases are not allowed on weekends.",
    (
        "No releases on weekends; production changes need approval first.",
        P,
        "reorder, negation form",
    ),
    ("Production changes do not require approval.", F, "negation flipped"),
)

with open(Path(__file__).with_name("pairs.jsonl"), "w", encoding="utf-8") as f:
    for lang, rows in (("zh", ZH), ("en", EN)):
        for i, (d, ref, ans, lab, why) in enumerate(rows, 1):
            f.write(
                json.dumps(
                    {
                        "id": f"{lang}-{d}-{i:03d}",
                        "lang": lang,
                        "reference": ref,
                        "answer": ans,
                        "label": lab,
                        "why": why,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
for lang, rows in (("zh", ZH), ("en", EN)):
    print(lang, len(rows), sum(r[3] == P for r in rows), sum(r[3] == F for r in rows))
