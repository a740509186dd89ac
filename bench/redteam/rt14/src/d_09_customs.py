D = "shipping_customs"
UK_CTX = [
    "Import duty thresholds. Goods sent to private individuals with a total value of £135 or less are not subject to customs duty, but import VAT at 20% is charged at the point of sale by the seller. For consignments above £135, customs duty applies based on the commodity code, and VAT is collected by the carrier before delivery.",
    "Gifts. Gifts sent between private individuals are relieved from duty and VAT if valued at £39 or less. Gifts valued between £39 and £630 are charged duty at a flat rate of 2.5%, while VAT remains due at the standard rate. The gift must be declared as such on the CN22 or CN23 form.",
    "Handling fees. Carriers may charge an advancement fee for paying duty and VAT on your behalf: £8 for parcels by postal operators and £11 or 2.5% of the amount paid, whichever is greater, for express couriers. Parcels not collected or paid for within 21 days are returned to the sender.",
]
CN_CU_CTX = [
    "进境居民旅客携带在境外获取的个人自用进境物品，总值在5000元人民币以内（含5000元）的，海关予以免税放行；单一品种限自用、合理数量。超出5000元的，仅对超出部分的个人自用进境物品征税，对不可分割的单件物品，全额征税。",
    "跨境电子商务零售进口商品的单次交易限值为5000元，个人年度交易限值为26000元。在限值以内进口的商品，关税税率暂设为0%，进口环节增值税、消费税按法定应纳税额的70%征收。",
    "旅客携带人民币现钞出入境，限额为每人每次20000元；携带外币现钞出入境，超过等值5000美元的应向海关书面申报。",
]

SCENARIOS = [
    dict(
        id="cu-e1",
        domain=D,
        lang="en",
        doc="UK_Import_Guide.pdf",
        loc="p. 5",
        ctx=UK_CTX,
        q="How are gifts taxed when they are sent between private individuals?",
        ref="Gifts valued at £39 or less are relieved from duty and VAT; gifts between £39 and £630 pay duty at a flat 2.5% and VAT at the standard rate; they must be declared as gifts on the CN22 or CN23 form.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "A gift between private individuals worth £39 or less pays neither duty nor VAT. Between £39 and £630, duty is charged at a flat 2.5% and VAT is still due at the standard rate. The parcel must be declared as a gift on the CN22 or CN23 form. (Source: UK_Import_Guide.pdf)",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "Based on the retrieved documents:\n\n- Up to £39: no duty, no VAT\n- £39 to £630: flat 2.5% duty, plus VAT at the standard rate\n- Declare it as a gift on the CN22 or CN23 form\n\n[1]",
            ),
            (
                "faithful_reordered_label",
                "pass",
                "Source: UK_Import_Guide.pdf\n\nYou have to declare the item as a gift on a CN22 or CN23. Duty and VAT relief then applies up to £39; from £39 to £630 there is a flat 2.5% duty, and VAT remains due at the standard rate.",
            ),
            (
                "faithful_subset_hedged",
                None,
                "Express couriers typically charge an advancement fee of £11 or 2.5% of the amount paid, whichever is greater. [1]",
            ),
            (
                "halluc_number",
                "fail",
                "Gifts valued at £45 or less are relieved from duty and VAT; between £45 and £630 a flat 2.5% duty applies and VAT is due at the standard rate. Declare the gift on the CN22 or CN23 form. (Source: UK_Import_Guide.pdf)",
            ),
            (
                "halluc_negation",
                "fail",
                "Gifts worth £39 or less are free of duty and VAT. Gifts between £39 and £630 pay a flat 2.5% duty and no VAT. They must be declared on the CN22 or CN23 form. [1]",
            ),
            (
                "halluc_entity_swap",
                None,
                "Gifts up to £39 are relieved from duty and VAT, and gifts between £39 and £630 pay a flat 2.5% duty plus VAT at the standard rate. The gift must be declared on a C88 form. (Source: UK_Import_Guide.pdf)",
            ),
            (
                "halluc_condition_moved",
                None,
                "Gifts worth £39 or less are relieved from duty and VAT. Gifts valued above £630 are charged duty at a flat rate of 2.5%, with VAT at the standard rate. [1]",
            ),
        ],
    ),
    dict(
        id="cu-e2",
        domain=D,
        lang="en",
        doc="UK_Import_Guide.pdf",
        loc="p. 2",
        ctx=UK_CTX,
        ct="composite",
        value=135.0,
        unit="GBP",
        q="Up to what value are goods sent to private individuals free of customs duty, and who collects the VAT?",
        ref="Up to £135 there is no customs duty and 20% import VAT is charged by the seller at the point of sale; above £135 duty applies and the carrier collects VAT before delivery.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Duty threshold: £135\n\nConsignments worth £135 or less carry no customs duty; the seller charges 20% import VAT at the point of sale. Above £135, duty depends on the commodity code and the carrier collects VAT before delivery. (Source: UK_Import_Guide.pdf)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "£135",
                {
                    "narrative_answer": "Goods sent to private individuals worth up to £135 are not subject to customs duty, but the seller charges import VAT of 20% at the point of sale. Above £135 the carrier collects the VAT before delivery."
                },
            ),
            (
                "faithful_value_reformatted",
                "pass",
                "Value: 135.00 GBP\nAt £135 or below no duty is due and the 20% VAT is charged by the seller at the point of sale [1].",
            ),
            (
                "halluc_number",
                "fail",
                "Duty threshold: £135\n\nGoods worth £135 or less are free of customs duty, and the seller charges import VAT at 15% at the point of sale. Above £135 the carrier collects VAT before delivery. (Source: UK_Import_Guide.pdf)",
            ),
            (
                "halluc_entity_swap",
                None,
                "Value: £135\nGoods of £135 or less pay no customs duty; the 20% import VAT is collected by the carrier on delivery. [1]",
            ),
            (
                "halluc_narrative_added",
                None,
                "£135",
                {
                    "narrative_answer": "Goods to private individuals worth £135 or less are duty-free, with 20% VAT charged by the seller at the point of sale. Excise goods such as alcohol and tobacco are excluded from this relief."
                },
            ),
        ],
    ),
    dict(
        id="cu-e3",
        domain=D,
        lang="en",
        doc="UK_Import_Guide.pdf",
        loc="p. 2",
        ctx=UK_CTX,
        q="How much import duty is charged on a used car shipped from Japan?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved guide covers parcels, gifts and handling fees, not vehicles, so I can't give the duty on a car from these documents.",
            ),
            (
                "refusal_fab_amount",
                1,
                "The guide doesn't cover vehicles. Cars imported from outside the UK typically attract 10% duty on top of VAT, but please check the tariff for the exact commodity code.",
            ),
        ],
    ),
    dict(
        id="cu-z1",
        domain=D,
        lang="zh",
        doc="海关旅客通关须知.pdf",
        loc="第2页",
        ctx=CN_CU_CTX,
        q="入境旅客带回的自用物品免税额度是多少？超出怎么征税？",
        ref="总值在5000元人民币以内（含5000元）的免税放行；超出5000元的，仅对超出部分征税，不可分割的单件物品全额征税。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "居民旅客带回的个人自用物品，总值不超过5000元人民币（含5000元）的免税放行。超过5000元时，只对超出部分征税；但如果是不可分割的单件物品，则全额征税。（来源：海关旅客通关须知.pdf）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n- 免税额度：5000元人民币以内（含5000元）\n- 超出部分：仅对超出部分征税\n- 不可分割的单件物品：全额征税\n- 单一品种限自用、合理数量\n[1]",
            ),
            (
                "faithful_echo_hash",
                "pass",
                "入境旅客带回的自用物品免税额度是多少？超出怎么征税？\n免税额度为5000元人民币（含本数），超出后只就超出部分征税，不可分割的单件物品全额征税。#para1",
            ),
            (
                "faithful_hedged_dash",
                "pass",
                "通常情况下，境外获取的自用物品总值在5000元以内（含5000元）免税；超过的，仅对超出部分征税，单件不可分割的物品则全额征税。— 海关旅客通关须知.pdf",
            ),
            (
                "halluc_number",
                "fail",
                "居民旅客携带的自用物品总值在8000元人民币以内的免税放行；超出的仅对超出部分征税，不可分割的单件物品全额征税。（来源：海关旅客通关须知.pdf）",
            ),
            (
                "halluc_exception_flipped",
                "fail",
                "总值5000元以内（含5000元）免税；超出5000元的只对超出部分征税，不可分割的单件物品也只对超出部分征税。[1]",
            ),
            (
                "halluc_quantifier_widened",
                None,
                "总值在5000元以内（含5000元）的免税放行；一旦超出5000元，所有携带物品均需全额征税。（来源：海关旅客通关须知.pdf）",
            ),
            (
                "halluc_added_sentence",
                None,
                "5000元以内（含5000元）免税，超出部分征税，不可分割的单件物品全额征税。烟酒类物品不计入5000元免税额度。[1]",
            ),
        ],
    ),
    dict(
        id="cu-z2",
        domain=D,
        lang="zh",
        doc="海关旅客通关须知.pdf",
        loc="第4页",
        ctx=CN_CU_CTX,
        ct="composite",
        value=26000.0,
        unit="元",
        q="跨境电商零售进口的个人年度交易限值是多少？税怎么算？",
        ref="单次交易限值5000元，个人年度交易限值26000元；限值以内关税税率暂设为0%，进口环节增值税、消费税按法定应纳税额的70%征收。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "年度限值：26000元\n跨境电商零售进口的个人年度交易限值为26000元，单次交易限值为5000元。限值以内的商品关税暂为0%，进口环节增值税和消费税按法定应纳税额的70%征收。（来源：海关旅客通关须知.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "26,000元",
                {
                    "narrative_answer": "个人每年跨境电商零售进口限额为26,000元，每单不超过5,000元；在限值内关税暂按0%执行，增值税和消费税按应纳税额的70%征收。"
                },
            ),
            (
                "faithful_table",
                "pass",
                "| 项目 | 规定 |\n|---|---|\n| 单次交易限值 | 5000元 |\n| 年度交易限值 | 26000元 |\n| 关税（限值内） | 暂设0% |\n| 增值税、消费税 | 按法定应纳税额的70%征收 |\n\n[1]",
            ),
            (
                "halluc_number",
                "fail",
                "年度限值：26000元\n限值以内关税暂设为0%，进口环节增值税、消费税按法定应纳税额的60%征收。（来源：海关旅客通关须知.pdf）",
            ),
            (
                "halluc_swap",
                "fail",
                "数值：26000元\n单次交易限值为26000元，个人年度交易限值为5000元；限值内关税为0%，增值税、消费税按70%征收。[1]",
            ),
            (
                "halluc_narrative_added",
                None,
                "26000元",
                {
                    "narrative_answer": "个人年度限值26000元，单次5000元；限值内关税0%，增值税、消费税按70%征收。超过年度限值的订单将被退运。"
                },
            ),
        ],
    ),
    dict(
        id="cu-z3",
        domain=D,
        lang="zh",
        doc="海关旅客通关须知.pdf",
        loc="第2页",
        ctx=CN_CU_CTX,
        q="从日本邮寄个人物品进境，行邮税税率是多少？",
        ref="",
        variants=[
            (
                "refusal_fab_three",
                3,
                "文档未列出行邮税税率。一般物品的税率分为13%、20%和50%三档，请以海关最新公告为准。",
            ),
            (
                "refusal_periods_only",
                0,
                "文档未提及行邮税税率；相关税率表一般按年度调整（如2024、2025年版），请查阅海关公告。",
            ),
        ],
    ),
]
