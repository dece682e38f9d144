var v,Oe,gt,A,ue,ee,Me,Y,je,pe,de,vt,q=Symbol.for("pv"),te={},ne=[],bt=/^m(i|n|o|s|text|space)$/,fe=Array.isArray,me=ne.slice,F=Object.assign;function W(e){e&&e.parentNode&&e.remove()}function De(e,t,n){var r,i,o,s={},a=arguments.length;for(o in t)o=="key"?r=t[o]:o=="ref"&&typeof e!="function"?i=t[o]:s[o]=t[o];return a>2&&(s.children=a>3?me.call(arguments,2):n),J(e,s,r,i,null)}function J(e,t,n,r,i){var o={type:e,props:t,key:n,ref:r,__k:null,__:null,__b:0,__e:null,__c:null,constructor:q,__v:i||++Oe,__i:-1,__u:0};return!i&&v.vnode&&v.vnode(o),o}function oe(e){return e.children}function Q(e,t){this.props=e,this.context=t,this.__g=0}function N(e,t){if(t==null)return e.__&&N(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!="function"||e.props.__P?null:N(e)}function $t(e){var t,n=e.__v,r=n.__e,i=[],o=[],s=e.__P;s&&((t=F({constructor:q},n)).__v=n.__v+1,v.vnode&&v.vnode(t),he(s,t,n,e.__n,s.namespaceURI,32&n.__u?[r]:null,i,r||N(n),32&n.__u,o),t.__v=n.__v,t.__.__k[t.__i]=t,Ie(i,t,o),n.__=n.__e=null,t.__e!=r&&Re(t))}function Re(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Re(e)}function Pe(e){(8&e.__g||(e.__g|=8,A.push(e),ee++))&&ue==v.debounceRendering||((ue=v.debounceRendering)||queueMicrotask)(Ue)}function Ue(){try{for(var e,t=1;A.length;)A.length>t&&A.sort(Me),e=A.shift(),t=A.length,8&e.__g&&$t(e)}finally{(ee=A.length)&&(ue||queueMicrotask)(Ue)}}function Ae(e,t,n,r,i,o,s,a,c,u,_){var p,f,l,m,S,g,b=r.__k||ne,h=t.length;for(c=yt(n,t,b,c,h),p=0;p<h;p++)(l=n.__k[p])!=null&&(f=~l.__i&&b[l.__i]||te,l.__i=p,g=he(e,l,f,i,o,s,a,c,u,_),m=l.__e,(f.ref!=l.ref||8&f.__u)&&(f.ref&&ge(f.ref,null,l,f),l.ref&&_.push(l.ref,l.__c||m,l)),S=S||m,4&l.__u?(c=Ne(l,c,e,!f.__v),f.__e&&(f.__e=null)):typeof l.type=="function"&&g!==void 0?c=g:m&&(c=m.nextSibling),l.__u&=-21);return n.__e=S,c}function yt(e,t,n,r,i){var o,s,a,c,u,_,p,f,l,m=n.length,S=m,g=0,b=0,h=e.__k=Array(i);for(o=0;o<i;o++)(s=t[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s!="object"||s.constructor===String?s=h[o]=J(null,s):fe(s)?s=h[o]=J(oe,{children:s}):s.constructor===q&&s.__b?s=h[o]=J(s.type,s.props,s.key,s.ref,s.__v):h[o]=s,c=o+g,s.__=e,s.__b=e.__b+1,a=null,~(u=s.__i=wt(s,n,c,S))&&(S--,(a=n[u])&&(a.__u|=2)),a&&a.__v?(s.__u|=16,u==c-1?g--:u==c+1?g++:u!=c&&(u>c?g--:g++,b=1)):(~u||(i>m?g--:i<m&&g++),typeof s.type!="function"&&(s.__u|=4))):h[o]=null;if(b){for(_=[],p=[],o=0;o<i;o++)if((s=h[o])&&16&s.__u){for(g=0,f=_.length;g<f;)_[l=g+f>>1]<s.__i?g=l+1:f=l;_[g]=s.__i,p[o]=g+1}for(g=_.length;o--;)p[o]&&(p[o]==g?g--:h[o].__u|=4)}if(S)for(o=0;o<m;o++)!(a=n[o])||2&a.__u||(a.__e==r&&(r=N(a)),ve(a,a));return r}function Ne(e,t,n,r){var i,o,s,a;if(typeof e.type=="function"){if(e.props.__P)return t;if(i=e.__k)for(o=0;o<i.length;o++)i[o]&&(i[o].__=e,t=Ne(i[o],t,n,!1));return t}for(t&&!t.parentNode&&(t=N(e))&&!t.parentNode&&(t=null),s=e.__e,a=t;a&&a.nodeType==8;)a=a.nextSibling;for(s!=a&&(!r&&n.moveBefore&&s.parentNode?n.moveBefore(s,t):n.insertBefore(s,t||null)),t=s;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function wt(e,t,n,r){var i,o=e.key,s=e.type,a=t[n],c=a&&!(2&a.__u);if(a===null&&o==null||c&&o==a.key&&s==a.type)return n;if(r>(c?1:0)){for(i=n-1;i>=0;i--)if((a=t[i])&&!(2&a.__u)&&o==a.key&&s==a.type)return i;for(i=n+1;i<t.length;i++)if((a=t[i])&&!(2&a.__u)&&o==a.key&&s==a.type)return i}return-1}function Le(e,t,n){n==null&&(n=""),t[0]=="-"?e.setProperty(t,n):e[t]=n}function X(e,t,n,r,i){var o,s;if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof r=="string"&&(e.style.cssText=r=""),r)for(t in r)n&&t in n||Le(e.style,t);if(n)for(t in n)r&&n[t]==r[t]||Le(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")typeof n!="function"&&(n=null),typeof r!="function"&&(r=null),(e.__e||(e.__e={}))[t]=n,n&&r||(s=de[t]||(de[t]=kt(t)),(e.__a||(e.__a={}))[t]=pe,o=t!=(t=t.replace(je,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),n?e.addEventListener(t,s,o):e.removeEventListener(t,s,o));else{if(i=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n)}}function kt(e){return function(t){var n=this.__e;if(n){if(n=n[e],t[Y]==null)t[Y]=pe++;else if(t[Y]<this.__a[e])return;return n(v.event?v.event(t):t)}}}function he(e,t,n,r,i,o,s,a,c,u){var _,p,f,l,m,S,g,b,h,x,$,ce,Ce,G,H,Ee,U,I,R=t.type;if(t.constructor!==q)return null;128&n.__u&&(c=32&n.__u,_=n.__c.__z)&&(t.__u|=c,p=o=[],_.nodeType==8?a=Z(_,o):o.push(_),a=o[0]||a),(_=v.__b)&&_(t);e:if(typeof R=="function"){f=s.length;try{if(b=t.props,h=(_=R.prototype)&&_.render,x=(_=R.contextType)&&r[_.__c],$=_?x?x.props.value:_.__:r,(l=n.__c)?(t.__c=l,2&l.__g&&(l.__g|=1)):(h?t.__c=l=new R(b,$):(t.__c=l=new Q(b,$),l.constructor=R,l.render=xt),x&&x.sub(l),l.state||(l.state={}),l.__n=r,l.__g|=8,l.__h=[],l.__k=[]),h&&(l.__s||(l.__s=l.state),R.getDerivedStateFromProps&&(l.__s==l.state&&(l.__s=F({},l.__s)),F(l.__s,R.getDerivedStateFromProps(b,l.__s)))),m=l.props,S=l.state,l.__v=t,n.__c){if(b!==m&&h&&!R.getDerivedStateFromProps&&l.componentWillReceiveProps&&l.componentWillReceiveProps(b,$),t.__v==n.__v&&!(8&l.__g)||!(4&l.__g)&&l.shouldComponentUpdate&&l.shouldComponentUpdate(b,l.__s,$)===!1){t.__v!=n.__v&&(l.props=b,l.state=l.__s,l.__g&=-9),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(O){O&&(O.__=t)}),ne.push.apply(l.__h,l.__k),l.__k=[],l.__h.length&&s.push(l),a=N(n);break e}l.componentWillUpdate&&l.componentWillUpdate(b,l.__s,$),h&&l.componentDidUpdate&&l.__h.push(function(){l.componentDidUpdate(m,S,g)})}else h&&!R.getDerivedStateFromProps&&l.componentWillMount&&l.componentWillMount(),h&&l.componentDidMount&&l.__h.push(l.componentDidMount);l.context=$,l.props=b,l.__P=e,l.__g&=-5,ce=v.__r,Ce=h?25:0;do l.__g&=-9,ce&&ce(t),_=l.render(l.props,l.state=l.__s,l.context);while(8&l.__g&&++Ce<25);h&&(ne.push.apply(l.__h,l.__k),l.__k=[]),l.state=l.__s,l.getChildContext&&(r=F({},r,l.getChildContext())),h&&n.__c&&l.getSnapshotBeforeUpdate&&(g=l.getSnapshotBeforeUpdate(m,S)),G=_&&_.type===oe&&_.key==null?_.props.children:_,b.__P&&(_=a,i=(e=b.__P).namespaceURI,c=o=null,n.props&&n.props.__P!=e&&(n.__k.some(function(O){O&&ve(O,O)}),n.__k=null),a=n.__k?N(n,0):null),a=Ae(e,fe(G)?G:[G],t,n,r,i,o,s,a,c,u),b.__P&&(t.__e=null,a=_),t.__u&=-161,p&&p.some(W),l.__h.length&&s.push(l),1&l.__g&&(l.__g&=-4)}catch(O){if(s.length=f,t.__v=null,c||o)if(O&&O.then){if(t.__u|=128|c,o){for(~(U=o.indexOf(a||void 0))||(U=o.length);(I=o[U-1])&&I.nodeType==8;)U--;for(;U<o.length;U++)if(I=o[U])if(o[U]=null,H){if(I==Ee)break}else{if(I.nodeType!=8)break;I.data.startsWith("$s")&&(Ee=Z(H=I))}}if(!H){for(;a&&a.nodeType==8&&a.nextSibling;)a=a.nextSibling;H=a}(_=Z(H=t.__c.__z||(t.__c.__z=H)))?(t.__e=H,a=_):t.__e=a,a=a&&a.nextSibling}else o&&o.some(W);else t.__e=n.__e;t.__k||(t.__k=n.__k||[]),O&&O.then||He(t),v.__e(O,t,n)}}else a=t.__e=St(n.__e,t,n,r,i,o,s,c,u,e);return(_=v.diffed)&&_(t),a}function Z(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))n++;else if(e.data.startsWith("/$s")&&!--n)return e}t&&t.push(e)}}function He(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(He))}function Ie(e,t,n){for(var r=0;r<n.length;)ge(n[r++],n[r++],n[r++]);v.__c&&v.__c(t,e),e.some(function(i){try{e=i.__h,i.__h=[],e.some(function(o){o.call(i)})}catch(o){v.__e(o,i.__v)}})}function St(e,t,n,r,i,o,s,a,c,u){var _,p,f,l,m,S,g,b,h=n.props||te,x=t.props,$=t.type;if($=="svg"?i="http://www.w3.org/2000/svg":$=="math"?i="http://www.w3.org/1998/Math/MathML":i||(i="http://www.w3.org/1999/xhtml"),o){for(_=0;_<o.length;_++)if((m=o[_])&&($?m.localName==$:m.nodeType==3)){e=m,o[_]=null;break}}if(!e){if(b=u.ownerDocument||document,!$)return b.createTextNode(x);e=b.createElementNS(i,$,x.is?x:u),a&&(v.__m&&v.__m(t,o),a=!1),o=null}if($){if(u=$=="template"&&e.content||e,o=$=="textarea"&&x.defaultValue!=null?null:o&&me.call(u.childNodes),!a&&o)for(h={},_=0;_<e.attributes.length;_++)h[(m=e.attributes[_]).name]=m.value;for(_ in h)m=h[_],_=="dangerouslySetInnerHTML"?f=m:_=="children"||_ in x||_=="value"&&"defaultValue"in x||_=="checked"&&"defaultChecked"in x||X(e,_,null,m,i);for(_ in x)m=x[_],_=="children"?l=m:_=="dangerouslySetInnerHTML"?p=m:_=="value"?S=m:_=="checked"?g=m:a&&typeof m!="function"||h[_]===m||X(e,_,m,h[_],i);p?(a||f&&(p.__html==f.__html||p.__html==e.innerHTML)||(e.innerHTML=p.__html),t.__k=[]):(f&&(e.textContent=""),($=="foreignObject"||i=="http://www.w3.org/1998/Math/MathML"&&bt.test($))&&(i="http://www.w3.org/1999/xhtml"),Ae(u,fe(l)?l:[l],t,n,r,i,o,s,o?o[0]:n.__k&&N(n,0),a,c),o&&o.some(W)),a&&$!="textarea"||(_="value",$=="progress"&&S==null?e.removeAttribute(_):S==null||S===e[_]&&($!="progress"||S)||X(e,_,S,h[_],i),_="checked",g!=null&&g!=e[_]&&X(e,_,g,h[_],i))}else h===x||a&&e.data==x||(e.data=x);return e}function ge(e,t,n,r){try{typeof e=="function"?t?t.__x=e(t)||1:r&&(r=r.__c||r.__e)&&(t=r.__x)&&(r.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(i){v.__e(i,n)}}function ve(e,t,n){var r,i,o,s;if(v.unmount&&v.unmount(e),!(r=e.ref)||r.current&&r.current!=e.__e||ge(r,null,t,e),r=e.__c){if(r.componentWillUnmount)try{r.componentWillUnmount()}catch(a){v.__e(a,t)}r.__P=r.__n=null}if(r=e.__k)for(s=0;s<r.length;s++)r[s]&&ve(r[s],t,typeof e.type!="function"||n&&!e.props.__P);!n&&(r=e.__c)&&(r=r.__z)&&(i=Z(r,o=[]))&&(r==e.__e&&o.some(W),W(i),W(r)),n||W(e.__e),e.__e=e.__c=e.__=null}function xt(e,t,n){return this.constructor(e,n)}function We(e,t){var n,r,i,o;v.__&&v.__(e,t),t.nodeType==9&&(t=t.documentElement),r=(n=e&&32&e.__u)?null:t.__k,t.__k=J(oe,{children:[e]}),i=[],o=[],he(t,t.__k,r||te,te,t.namespaceURI,r?null:t.firstChild?me.call(t.childNodes):null,i,r?r.__e:t.firstChild,n,o),Ie(i,t.__k,o),t.__k.props.children=null}v={__e:function(e,t,n,r){for(var i,o,s;t=t.__;)if((i=t.__c)&&!(1&i.__g)){i.__g|=4;try{if((s=(o=i.constructor)&&o.getDerivedStateFromError)&&i.setState(o.getDerivedStateFromError(e)),i.componentDidCatch&&(i.componentDidCatch(e,r||{}),s=1),s&&8&i.__g)return void(i.__g|=2)}catch(a){e=a}}throw ee=0,e}},Oe=0,gt=function(e){return e!=null&&e.constructor===q},Q.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=F({},this.state)),typeof e=="function"&&(e=e(F({},n),this.props)),e&&(F(n,e),this.__v&&(t&&this.__k.push(t),Pe(this)))},Q.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),Pe(this))},Q.prototype.render=oe,A=[],ee=0,Me=function(e,t){return e.__v.__b-t.__v.__b},Y=Symbol(),je=/(PointerCapture)$|Capture$/i,pe=0,de={},vt=0;var V,k,be,Fe,$e=Object.is,re=0,Ye=[],ye=[],w=v,Be=w.__b,Je=w.__r,qe=w.diffed,Ke=w.__c,Ve=w.unmount,ze=w.__;function ke(e,t){w.__h&&w.__h(k,e,re||t),re=0;var n=k.__H||(k.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function y(e){return re=1,Tt(et,e)}function Tt(e,t,n){var r=ke(V++,2);if(r.t=e,!r.__c&&(r.__=[n?n(t):et(void 0,t),function(o){var s=(r.__N||r.__)[0],a=r.t(s,o);$e(s,a)||(r.__N=[a,r.__[1]],r.__c.setState({}))}],r.__c=k,!k.__f)){k.__f=!0;var i=k.shouldComponentUpdate;k.shouldComponentUpdate=function(o,s,a){var c=this.__H;if(!c)return!0;var u=!1,_=this.props!=o;if(c.__.some(function(f){f.__N&&(u=!0,$e(f.__[0],f.__N[0])||(_=!0))}),i){var p=i.call(this,o,s,a);return u?p||_:p}return!u||_}}return r.__}function se(e,t){var n=ke(V++,3);!w.__s&&Ze(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,k.__H.__h.push(n))}function Ct(e,t){var n=ke(V++,7);return Ze(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function Qe(e,t){return re=8,Ct(function(){return e},t)}function Et(){var e;do{for(;e=ye.shift();)try{K(e)}catch(n){w.__e(n,{__:(e=e.__P)&&e.__v})}for(;e=Ye.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(K),t.__h.some(we),t.__h=[]}catch(n){t.__h=[],w.__e(n,e.__v)}}}while(ye.length)}w.__b=function(e){k=null,Be&&Be(e)},w.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),ze&&ze(e,t)},w.__r=function(e){Je&&Je(e),V=0;var t=(k=e.__c).__H;t&&(be==k?k.__h=[]:(t.__h.some(K),t.__h.some(we),V=0),t.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),be=k},w.diffed=function(e){qe&&qe(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&Xe(Ye.push(t)),t.__H.__.some(function(n){n.u&&(n.__H=n.u)})),be=k=null},w.__c=function(e,t){t.some(function(n){try{n.__h.some(K),n.__h=n.__h.filter(function(r){return!r.__||we(r)})}catch(r){n.__h=[function(){throw r}]}}),Ke&&Ke(e,t)},w.unmount=function(e){Ve&&Ve(e);var t,n,r=e.__c;r&&r.__H&&(r.__H.__.some(function(i){try{if(i.__P&&i.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}i.__P=n,Xe(ye.push(i))}else K(i)}catch(o){t=o}}),r.__H=void 0,t&&w.__e(t,r.__v))};var Ge=typeof requestAnimationFrame=="function";function Pt(e){var t,n=function(){clearTimeout(r),Ge&&cancelAnimationFrame(t),setTimeout(e)},r=setTimeout(n,35);Ge&&(t=requestAnimationFrame(n))}function Xe(e){e!=1&&Fe==w.requestAnimationFrame||((Fe=w.requestAnimationFrame)||Pt)(Et)}function K(e){var t=k,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),k=t}function we(e){var t=k;e.__c=e.__(),k=t}function Ze(e,t){return!e||e.length!=t.length||t.some(function(n,r){return!$e(n,e[r])})}function et(e,t){return typeof t=="function"?t(e):t}var Se="console.apiKey",tt=new URL(".",location.href).href.replace(/\/$/,""),_e=()=>sessionStorage.getItem(Se)??"",le=e=>e?sessionStorage.setItem(Se,e):sessionStorage.removeItem(Se),z=class extends Error{constructor(n,r,i){super(r);this.status=n;this.code=i}status;code};async function nt(e){let t=await e.json().catch(()=>{});return new z(e.status,t?.error?.message??`${e.status} ${e.statusText}`,t?.error?.code??"http_error")}async function ot(e,t,n,r){let i={authorization:`Bearer ${_e()}`,accept:r};n!==void 0&&(i["content-type"]="application/json"),e==="POST"&&(i["idempotency-key"]=crypto.randomUUID());let o=await fetch(tt+t,{method:e,headers:i,body:n===void 0?void 0:JSON.stringify(n)});if(!o.ok)throw await nt(o);return o}async function j(e,t,n){let r=await ot(e,t,n,"application/json");if(r.status!==204)return r.json()}var T=e=>j("GET",e);async function xe(e,t,n){let r=await(await ot("GET",e,void 0,n)).text(),i=URL.createObjectURL(new Blob([r],{type:n}));Object.assign(document.createElement("a"),{href:i,download:t}).click(),setTimeout(()=>URL.revokeObjectURL(i),1e3)}var Lt=4,ie=0,ae=[];function Ot(e){return ie<Lt?(ie+=1,Promise.resolve()):new Promise((t,n)=>{let r=()=>{e.removeEventListener("abort",i),ie+=1,t()},i=()=>{ae.splice(ae.indexOf(r),1),n(e.reason)};ae.push(r),e.addEventListener("abort",i,{once:!0})})}function Mt(){ie-=1,ae.shift()?.()}async function rt(e,t,n){await Ot(n);try{await jt(e,t,n)}finally{Mt()}}async function jt(e,t,n){let r=await fetch(tt+e,{headers:{authorization:`Bearer ${_e()}`,accept:"text/event-stream"},signal:n});if(!r.ok||!r.body)throw await nt(r);let i=r.body.pipeThrough(new TextDecoderStream).getReader(),o="";for(;;){let{value:s,done:a}=await i.read();if(a)return;o+=s.replace(/\r\n/g,`
`);for(let c=o.indexOf(`

`);c>=0;c=o.indexOf(`

`)){let u=o.slice(0,c);o=o.slice(c+2);let _="message",p=[];for(let f of u.split(`
`))f.startsWith("event:")?_=f.slice(6).trim():f.startsWith("data:")&&p.push(f.slice(5).trimStart());p.length&&t(_,JSON.parse(p.join(`
`)))}}}var it=function(e,t,n,r){var i;t[0]=0;for(var o=1;o<t.length;o++){var s=t[o++],a=t[o]?(t[0]|=s?1:2,n[t[o++]]):t[++o];s===3?r[0]=a:s===4?r[1]=Object.assign(r[1]||{},a):s===5?(r[1]=r[1]||{})[t[++o]]=a:s===6?r[1][t[++o]]+=a+"":s?(i=e.apply(a,it(e,a,n,["",null])),r.push(i),a[0]?t[0]|=2:(t[o-2]=0,t[o]=i)):r.push(a)}return r},st=new Map;function at(e){var t=st.get(this);return t||(t=new Map,st.set(this,t)),(t=it(this,t.get(e)||(t.set(e,t=(function(n){for(var r,i,o=1,s="",a="",c=[0],u=function(f){o===1&&(f||(s=s.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?c.push(0,f,s):o===3&&(f||s)?(c.push(3,f,s),o=2):o===2&&s==="..."&&f?c.push(4,f,0):o===2&&s&&!f?c.push(5,0,!0,s):o>=5&&((s||!f&&o===5)&&(c.push(o,0,s,i),o=6),f&&(c.push(o,f,0,i),o=6)),s=""},_=0;_<n.length;_++){_&&(o===1&&u(),u(_));for(var p=0;p<n[_].length;p++)r=n[_][p],o===1?r==="<"?(u(),c=[c],o=3):s+=r:o===4?s==="--"&&r===">"?(o=1,s=""):s=r+s[0]:a?r===a?a="":s+=r:r==='"'||r==="'"?a=r:r===">"?(u(),o=1):o&&(r==="="?(o=5,i=s,s=""):r==="/"&&(o<5||n[_][p+1]===">")?(u(),o===3&&(c=c[0]),o=c,(c=c[0]).push(2,0,o),o=0):r===" "||r==="	"||r===`
`||r==="\r"?(u(),o=2):s+=r),o===3&&s==="!--"&&(o=4,c=c[0])}return u(),c})(e)),t),arguments,[])).length>1?t:t[0]}var d=at.bind(De);function C(e,t=[]){let[n,r]=y({loading:!0}),[i,o]=y(0);return se(()=>{let s=!0;return r(a=>({...a,loading:!0})),e().then(a=>s&&r({data:a,loading:!1}),a=>s&&r({error:P(a),loading:!1})),()=>{s=!1}},[...t,i]),{...n,reload:Qe(()=>o(s=>s+1),[])}}var P=e=>e instanceof z?`${e.message} (${e.code})`:e instanceof Error?e.message:String(e),M=({error:e})=>e?d`<p class="error" role="alert">${e}</p>`:null;function L({loaded:e,empty:t,children:n}){return e.error?d`<${M} error=${e.error} />`:e.loading&&e.data===void 0?d`<p class="muted">Loading…</p>`:t?d`<p class="empty">${t}</p>`:n}var D=e=>e?new Date(e).toLocaleString():"\u2014",E=e=>e==null?"\u2014":e.toLocaleString();var _t=new Set(["completed","failed","cancelled"]),Dt=2e3;function Rt({job:e,onChange:t}){let[n,r]=y(e),[i,o]=y(),[s,a]=y(0);se(()=>{if(_t.has(e.status))return;let _=new AbortController,p=!1,f;return rt(`/bd/jobs/${e.job_id}/events`,(l,m)=>{r(m),l==="complete"&&(p=!0,t())},_.signal).then(()=>{!p&&!_.signal.aborted&&(f=setTimeout(()=>a(l=>l+1),Dt))},l=>_.signal.aborted||o(P(l))),()=>{_.abort(),clearTimeout(f)}},[e.job_id,e.status,s]);let c=_=>_().then(t,p=>o(P(p))),u=!_t.has(n.status);return d`
    <li class="job" data-status=${n.status}>
      <div class="row spread">
        <strong>${e.preset}</strong>
        <span class="badge ${n.status}">${n.status}</span>
      </div>
      <progress max="100" value=${n.progress_percent} aria-label=${`Job ${e.job_id} progress`}>${n.progress_percent}%</progress>
      <div class="row spread small"><span class="pct">${n.progress_percent} %</span><span>${n.progress_message}</span></div>
      <div class="small muted">${D(e.created_at)} · ${e.origin} · reserved ${E(e.credits_reserved)}, charged ${E(e.credits_charged)} · <code>${e.job_id}</code></div>
      ${e.error_message&&d`<p class="error">${e.error_message}</p>`}
      ${Object.keys(e.stats.rows_by_source).length>0&&d`<div class="small sources">Rows by source: ${Object.entries(e.stats.rows_by_source).map(([_,p])=>`${_} ${E(p)}`).join(", ")}</div>`}
      ${e.warnings.length>0&&d`<ul class="small warnings">${e.warnings.map(_=>d`<li>${_}</li>`)}</ul>`}
      <div class="row">
        ${u&&d`<button onClick=${()=>c(()=>j("POST",`/bd/jobs/${e.job_id}/cancel`))}>Cancel</button>`}
        ${n.status==="completed"&&d`
          <button onClick=${()=>c(()=>xe(`/bd/jobs/${e.job_id}/export?format=csv`,`job-${e.job_id}.csv`,"text/csv"))}>Export CSV</button>
          <button onClick=${()=>c(()=>xe(`/bd/jobs/${e.job_id}/export?format=json`,`job-${e.job_id}.json`,"application/json"))}>Export JSON</button>`}
      </div>
      <${M} error=${i} />
    </li>`}var Ut=e=>({preset:"full_pipeline",input_assets:{companies:Array.from({length:e},(t,n)=>({company_name:`Demo Company ${n+1}`,domain:`demo-company-${n+1}.io`}))}});function lt(){let e=C(()=>T("/bd/jobs?limit=20")),[t,n]=y(),[r,i]=y(20);return d`
    <section aria-labelledby="jobs-h">
      <h2 id="jobs-h">Enrichment jobs</h2>
      <form class="row" onSubmit=${s=>{s.preventDefault(),n(void 0),j("POST","/bd/jobs",Ut(r)).then(e.reload,a=>n(P(a)))}}>
        <label>Sample companies <input type="number" min="1" max="500" value=${r} onInput=${s=>i(Number(s.currentTarget.value))} /></label>
        <button type="submit">Start a sample job</button>
        <button type="button" onClick=${e.reload}>Refresh</button>
      </form>
      <${M} error=${t} />
      <${L} loaded=${e} empty=${e.data?.items.length===0&&"No jobs yet. Start a sample job above, or POST /bd/jobs with your own companies; it shows here with its progress."}>
        <ul class="list">${e.data?.items.map(s=>d`<${Rt} key=${s.job_id+s.status} job=${s} onChange=${e.reload} />`)}</ul>
      <//>
    </section>`}var B="/integrations/moderation";function At({community:e}){let t=C(()=>T(`${B}/status?community_id=${e.id}&include_logs=50`),[e.id]),n=C(()=>T(`${B}/communities/${e.id}/rules`),[e.id]),[r,i]=y(),o=(u,_)=>{i(void 0),u().then(_,p=>i(P(p)))},s=t.data,a=[...s?.audit_logs??[]].sort((u,_)=>_.at.localeCompare(u.at)),c=n.data?.mode;return d`
    <article class="panel" aria-label=${e.name??e.id}>
      <div class="row spread"><h3>${e.name??e.id}</h3><span class="muted">${e.platform??""}</span></div>
      <${M} error=${r} />
      <${L} loaded=${t}>${s&&d`
        <dl class="cards">
          <div><dt>Status</dt><dd>${s.status} (${s.connection_state})</dd></div>
          <div><dt>Messages scanned</dt><dd>${E(s.metrics.messages_scanned)}</dd></div>
          <div><dt>Flagged</dt><dd>${E(s.metrics.messages_flagged)} (${(s.metrics.spam_rate*100).toFixed(1)}%)</dd></div>
          <div><dt>Rules</dt><dd>${c??"\u2026"}
            ${c&&d` <button onClick=${()=>o(()=>j("PUT",`${B}/communities/${e.id}/rules`,{mode:c==="enforce"?"observe":"enforce"}),n.reload)}>
              Switch to ${c==="enforce"?"observe":"enforce"}</button>`}</dd></div>
        </dl>
        <h4>Audit log, newest first</h4>
        ${a.length===0?d`<p class="empty">No actions yet. Moderated messages appear here once events arrive (POST ${B}/communities/{id}/events, or the platform's bot).</p>`:d`
          <ul class="list">${a.map(u=>d`<li>
            <div class="row spread"><strong>${u.action}${u.delivery?` (${u.delivery.status})`:""} · ${u.username}</strong><span class="small muted">${D(u.at)}</span></div>
            <div class="small">${u.rule}: ${u.reason}</div>
            ${u.message_excerpt&&d`<blockquote class="small">${u.message_excerpt}</blockquote>`}
            ${u.undo?d`<div class="small">Undone ${D(u.undo.at)} (${u.undo.status})</div>`:(u.action==="mute"||u.action==="ban")&&d`<button onClick=${()=>o(()=>j("POST",`${B}/communities/${e.id}/audit-logs/${u.id}/undo`),t.reload)} aria-label=${`Undo ${u.action} of ${u.username}`}>Undo</button>`}
          </li>`)}</ul>`}
      `}<//>
    </article>`}function ct(){let e=C(()=>T(`${B}/communities?limit=20`));return d`
    <section aria-labelledby="mod-h">
      <h2 id="mod-h">Moderation</h2>
      <${L} loaded=${e} empty=${e.data?.items.length===0&&`No communities yet. Create one with POST ${B}/communities; its status and audit log show here.`}>
        ${e.data?.items.map(t=>d`<${At} key=${t.id} community=${t} />`)}
      <//>
    </section>`}function ut({title:e,path:t,canDelete:n,empty:r}){let i=C(()=>T(`${t}?limit=20`)),[o,s]=y(),[a,c]=y(),u=_=>c(P(_));return d`
    <section aria-label=${e}>
      <h2>${e}</h2>
      <${M} error=${a} />
      <${L} loaded=${i} empty=${i.data?.items.length===0&&r}>
        <ul class="list">${i.data?.items.map(_=>d`<li class="row spread">
          <span>${_.title??_.tool_name??_.id} <span class="small muted">${D(_.created_at)}</span></span>
          <span class="row">
            <button onClick=${()=>T(`${t}/${_.id}`).then(p=>s({id:_.id,body:p}),u)}>Open</button>
            ${n&&d`<button onClick=${()=>confirm("Delete it?")&&j("DELETE",`${t}/${_.id}`).then(i.reload,u)}>Delete</button>`}
          </span></li>`)}</ul>
      <//>
      ${o&&d`<div class="panel"><div class="row spread"><strong>${o.id}</strong><button onClick=${()=>s(void 0)}>Close</button></div>
        <pre tabindex="0">${JSON.stringify(o.body,null,2)}</pre></div>`}
    </section>`}var dt=()=>d`
  <${ut} title="Stored results" path="/results" canDelete=${!1} empty="No stored results yet. Tool calls and finished jobs store their results here." />
  <${ut} title="Chats" path="/chats" canDelete=${!0} empty="No chats yet. Create one with POST /chats and pass its chat_id when you start a job." />`;function pt({days:e}){let o=Math.max(1,...e.map(u=>u.credits)),s=600/Math.max(1,e.length),a=Math.max(1,s*.75),c=e.reduce((u,_)=>u+_.credits,0);return d`
    <figure class="chart">
      <svg viewBox="0 0 ${600} ${160}" role="img" aria-label=${`Credits used per day: ${c} over ${e.length} days, at most ${o} in a day`}>
        <line x1="0" x2=${600} y1=${159} y2=${159} class="axis" />
        ${e.map((u,_)=>{let p=155*u.credits/o;return d`<rect class="bar" x=${_*s+(s-a)/2} y=${159-p} width=${a} height=${p}><title>${u.date}: ${u.credits} credits</title></rect>`})}
      </svg>
      ${e.length?d`<figcaption class="row spread small muted"><span>${e[0].date}</span><span>highest ${o} a day</span><span>${e[e.length-1].date}</span></figcaption>`:null}
    </figure>`}function ft(){let[e,t]=y(),n=C(()=>Promise.all([T("/users/me"),T("/subscriptions/status")])),r=C(()=>T(e?`/credits/usage?start_date=${e.start}&end_date=${e.end}`:"/credits/usage"),[e?.start,e?.end]),i=c=>{c.preventDefault();let u=new FormData(c.currentTarget);t({start:String(u.get("start")),end:String(u.get("end"))})},[o,s]=n.data??[],a=r.data;return d`
    <section aria-labelledby="balance-h">
      <h2 id="balance-h">Balance</h2>
      <${L} loaded=${n}>
        ${o&&s&&d`<dl class="cards">
          <div><dt>Credits available</dt><dd class="big" data-testid="balance">${E(s.credits_total)}</dd></div>
          <div><dt>Of which never expire</dt><dd>${E(o.permanent_credit_balance)}</dd></div>
          <div><dt>Plan</dt><dd>${s.tier} (${s.status})</dd></div>
          <div><dt>Monthly credits expire</dt><dd>${D(s.credits_expiring)}</dd></div>
        </dl>`}
      <//>
    </section>
    <section aria-labelledby="usage-h">
      <h2 id="usage-h">Usage</h2>
      <form class="row" onSubmit=${i}>
        <label>From <input type="date" name="start" value=${e?.start??r.data?.start_date} required /></label>
        <label>To <input type="date" name="end" value=${e?.end??r.data?.end_date} required /></label>
        <button type="submit">Show</button>
      </form>
      <${L} loaded=${r}>
        ${a&&d`
          <dl class="cards">
            <div><dt>Used</dt><dd class="big">${E(a.total_used)}</dd></div>
            <div><dt>Allowance</dt><dd>${a.allowance===null?"none":`${E(a.allowance)} (${a.percentage_used}% used)`}</dd></div>
            <div><dt>Per day</dt><dd>${a.average_daily}</dd></div>
            <div><dt>Projected this period</dt><dd>${E(a.projected)}</dd></div>
          </dl>
          <h3>By day</h3>
          ${a.total_used===0?d`<p class="empty">No credits used from ${a.start_date} to ${a.end_date}. Start a job on the Jobs tab, or widen the dates.</p>`:d`<${pt} days=${a.by_day} />`}
          <h3>By tool</h3>
          ${a.by_tool.length===0?d`<p class="empty">Nothing charged in this range yet.</p>`:d`
            <table><thead><tr><th scope="col">Tool</th><th scope="col" class="n">Credits</th></tr></thead>
              <tbody>${a.by_tool.map(c=>d`<tr><td>${c.tool_name}</td><td class="n">${E(c.credits)}</td></tr>`)}</tbody></table>`}
        `}
      <//>
    </section>`}var Nt=({endpoint:e})=>d`
  <li>
    <div class="row spread"><code>${e.url}</code><span class="badge ${e.status}">${e.status}</span></div>
    <div class="small muted">${e.event_types.join(", ")} · ${e.id}</div>
    ${e.disabled_reason&&d`<p class="small error">${e.disabled_reason}. It receives nothing more; register the URL again to resume.</p>`}
  </li>`;function mt(){let e=C(()=>T("/webhooks/endpoints")),t=C(()=>T("/webhooks/deliveries?limit=50")),[n,r]=y(),i=o=>{r(void 0),j("POST",`/webhooks/deliveries/${o}/retry`).then(t.reload,s=>r(P(s)))};return d`
    <section aria-labelledby="ep-h">
      <h2 id="ep-h">Webhook endpoints</h2>
      <${L} loaded=${e} empty=${e.data?.items.length===0&&"No endpoints yet. POST /webhooks/endpoints with a url and event_types (job.completed, credits.low, \u2026) to be called when they happen."}>
        <ul class="list">${e.data?.items.map(o=>d`<${Nt} key=${o.id} endpoint=${o} />`)}</ul>
      <//>
    </section>
    <section aria-labelledby="del-h">
      <h2 id="del-h">Recent deliveries</h2>
      <${M} error=${n} />
      <${L} loaded=${t} empty=${t.data?.items.length===0&&"No deliveries yet. They are listed here, with their answers, once an event is sent to one of your endpoints."}>
        <div class="scroll"><table>
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Retry</th></tr></thead>
          <tbody>${t.data?.items.map(o=>d`<tr>
            <td>${D(o.created_at)}</td><td>${o.event_type}</td><td>${o.status}</td><td class="n">${o.attempts}</td>
            <td>${o.last_status_code??o.last_error??"\u2014"}</td>
            <td><button onClick=${()=>i(o.id)} aria-label=${`Retry delivery ${o.id}`}>Retry</button></td></tr>`)}</tbody>
        </table></div>
      <//>
    </section>`}var Te=[{id:"usage",label:"Credits",view:ft},{id:"jobs",label:"Jobs",view:lt},{id:"moderation",label:"Moderation",view:ct},{id:"storage",label:"Results & chats",view:dt},{id:"webhooks",label:"Webhooks",view:mt}];function Ht({onKey:e}){let[t,n]=y();return d`
    <form class="panel key" onSubmit=${i=>{i.preventDefault();let o=String(new FormData(i.currentTarget).get("key")??"").trim();le(o),T("/users/me").then(e,s=>{le(""),n(P(s))})}}>
      <h2>Your API key</h2>
      <p>Paste the key <code>npm start</code> printed (or your own). It stays in this tab only and is sent in the Authorization header.</p>
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required />
      <button type="submit">Open the console</button>
      <${M} error=${t} />
    </form>`}function It(){let[e,t]=y(!!_e()),[n,r]=y(location.hash.slice(1)||"usage"),i=Te.find(s=>s.id===n)??Te[0],o=s=>{r(s),history.replaceState(null,"",`#${s}`)};return d`
    <header class="row spread">
      <h1>Console</h1>
      ${e&&d`<button onClick=${()=>{le(""),t(!1)}}>Forget key</button>`}
    </header>
    ${e?d`
      <nav aria-label="Screens"><ul class="tabs">${Te.map(s=>d`<li>
        <a href=${`#${s.id}`} aria-current=${s.id===i.id?"page":void 0} onClick=${a=>{a.preventDefault(),o(s.id)}}>${s.label}</a></li>`)}</ul></nav>
      <main><${i.view} key=${i.id} /></main>`:d`<main><${Ht} onKey=${()=>t(!0)} /></main>`}`}var ht=document.getElementById("app");if(!ht)throw new Error("The console page has no #app element");We(d`<${It} />`,ht);
